import Foundation
import NIOCore
import OnTheMapModel
import OnTheMapStore

/// Who is writing: the caller's session if any, and where the request came from.
struct Writer: Sendable {
    let caller: Caller?
    let clientAddress: String
    /// Their pins wait for an instructor's approval (`ApprovalRule`).
    var heldForApproval = false
}

/// Reads and writes of student locations with the rules of docs/API.md, "Who may write". The list
/// cache learns of writes from the store's change feed, not from here.
struct LocationService: Sendable {
    let store: any LocationStore & CourseStore
    let writeMode: WriteMode
    let maxListLimit: Int
    let maxSkip: Int
    let cache: LatestListCache
    let lanes: ReadLanes
    let anonymousWrites: any RateLimiter
    let clock: WallClock
    /// Told of every pin a logged-in student posted or changed, once it is saved (their grade, `LTIGrades`).
    var posted: @Sendable (Account, CourseID) -> Void = { _, _ in }

    /// A list answer: a page read for this query, or the default list's cached entry (with its
    /// ETag and gzip form).
    enum ListAnswer: Sendable {
        case page(ByteBuffer)
        case cached(LatestListCache.Entry)
    }

    /// The encoded `{"results": [...]}` (with `count` when asked) for `query` in `course`, with the
    /// students' `names` as the reader sees them (`NamesForReader`). Reads run in the lane their
    /// cost calls for; a cache hit reads nothing.
    func list(_ query: LocationQuery, in course: CourseID, names: Course.NamesShown = .full) async throws -> ListAnswer {
        if query.isDefaultList {
            return .cached(try await cache.get(.init(course, names: names)) { [self] in try await read(query, in: course, names: names) })
        }
        // No cache holds it: a standby may answer, as fresh as the caller's own writes need.
        return .page(try await StandbyReads.$allowed.withValue(true) { try await read(query, in: course, names: names) })
    }

    /// The encoded page, read in the query's lane.
    private func read(_ query: LocationQuery, in course: CourseID, names: Course.NamesShown) async throws -> ByteBuffer {
        try await lanes.lane(for: query).run {
            var page = try await store.locations(query, in: course)
            if names == .initials { page.results = page.results.map { $0.withInitials() } }
            return Self.encode(page)
        }
    }

    /// A location of `course` as the public sees it: a hidden one is not there, nor another course's.
    func location(objectId: String, in course: CourseID) async throws -> StudentLocation {
        guard let owned = try await store.location(objectId: objectId), owned.course == course, !owned.isHidden else {
            throw APIError.notFound("No location with objectId \(objectId).")
        }
        return owned.location
    }

    /// Creates the writer's location in `course`, or overwrites the one their account already has there.
    func create(_ fields: LocationFields, in course: CourseID, by writer: Writer) async throws -> StudentLocation {
        var complete = try fields.requireComplete()
        if let caller = writer.caller {
            complete.uniqueKey = caller.account.key
            complete.firstName = caller.account.firstName
            complete.lastName = caller.account.lastName
        }
        do {
            let saved = try await store.saveLocation(
                complete, ownerKey: writer.caller?.account.key, in: course, now: clock.nowMillis(), heldForApproval: writer.heldForApproval)
            if let caller = writer.caller { posted(caller.account, course) }
            return saved
        } catch let error where !(error is StoreError) {
            // A course deleted by another process in the seconds this one still knew it: its pins
            // may no longer be written (the database's foreign key says so), and it is not there.
            if course != .default, try await store.course(id: course) == nil { throw APIError.courseNotFound }
            throw error
        }
    }

    /// Applies the present fields to a location of `course` the writer may change.
    func update(objectId: String, in course: CourseID, with fields: LocationFields, by writer: Writer) async throws -> StudentLocation {
        let owned = try await modifiable(objectId, in: course, by: writer)
        var fields = fields
        if owned.ownerKey != nil {
            // An owned pin always shows its owner: identity fields come from the account, never the body.
            fields.uniqueKey = nil
            fields.firstName = nil
            fields.lastName = nil
        }
        guard let updated = try await store.updateLocation(
            objectId: objectId, in: course, with: fields, now: clock.nowMillis(), heldForApproval: writer.heldForApproval) else {
            throw APIError.notFound("No location with objectId \(objectId).")
        }
        if let caller = writer.caller, caller.account.key == owned.ownerKey { posted(caller.account, course) }
        return updated
    }

    func delete(objectId: String, in course: CourseID, by writer: Writer) async throws {
        _ = try await modifiable(objectId, in: course, by: writer)
        guard try await store.deleteLocation(objectId: objectId, in: course) else {
            throw APIError.notFound("No location with objectId \(objectId).")
        }
    }

    /// Refuses a write before anything is read or changed: no session in `accounts` mode (401), or
    /// too many anonymous writes from one address in `open` mode (429).
    func admit(_ writer: Writer) async throws {
        if writer.caller != nil { return }
        switch writeMode {
        case .accounts:
            throw APIError.loginRequired
        case .open:
            try await anonymousWrites.admit(writer.clientAddress, tooMany: "writes from this address")
        }
    }

    /// The location of `course` if the writer may change it: its owner, an admin, or anyone for an
    /// anonymous legacy pin in `open` mode. Another course's is not there.
    private func modifiable(_ objectId: String, in course: CourseID, by writer: Writer) async throws -> OwnedLocation {
        guard let owned = try await store.location(objectId: objectId), owned.course == course else {
            throw APIError.notFound("No location with objectId \(objectId).")
        }
        if let caller = writer.caller, caller.account.isAdmin || caller.account.key == owned.ownerKey { return owned }
        if owned.ownerKey == nil, writeMode == .open { return owned }
        if writer.caller == nil { throw APIError.loginRequired }
        throw APIError.forbidden("Only the owner of this location (or an admin) may change it.")
    }

    /// `{"count": N, "results": [...]}`, `count` only when asked for.
    static func encode(_ page: LocationPage) -> ByteBuffer {
        ByteBuffer(bytes: LocationJSON.page(page.results, count: page.count))
    }
}
