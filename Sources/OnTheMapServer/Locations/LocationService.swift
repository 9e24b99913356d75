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

    /// Applies the present fields to a location of `course` the writer may change. Whether they
    /// may is checked by the write itself (`LocationWriteRight`): one round trip, no read before.
    func update(objectId: String, in course: CourseID, with fields: LocationFields, by writer: Writer) async throws -> StudentLocation {
        let outcome = try await store.updateLocation(
            objectId: objectId, in: course, with: fields, now: clock.nowMillis(), heldForApproval: writer.heldForApproval, by: right(of: writer))
        let (updated, ownerKey) = try written(outcome, objectId: objectId, by: writer)
        if let caller = writer.caller, caller.account.key == ownerKey { posted(caller.account, course) }
        return updated
    }

    func delete(objectId: String, in course: CourseID, by writer: Writer) async throws {
        _ = try written(try await store.deleteLocation(objectId: objectId, in: course, by: right(of: writer)), objectId: objectId, by: writer)
    }

    /// Which pins the writer may change: their own, any for an admin, and anonymous legacy pins
    /// for anyone in `open` mode.
    private func right(of writer: Writer) -> LocationWriteRight {
        LocationWriteRight(
            accountKey: writer.caller?.account.key, isAdmin: writer.caller?.account.isAdmin ?? false, ownerlessPins: writeMode == .open)
    }

    /// The written value, or the error of a pin not there (another course's is not there either, 404)
    /// or not the writer's (401 without a session, else 403).
    private func written<Value>(_ outcome: LocationWriteOutcome<Value>, objectId: String, by writer: Writer) throws -> (Value, String?) {
        switch outcome {
        case .written(let value, let ownerKey): return (value, ownerKey)
        case .notFound: throw APIError.notFound("No location with objectId \(objectId).")
        case .refused:
            if writer.caller == nil { throw APIError.loginRequired }
            throw APIError.forbidden("Only the owner of this location (or an admin) may change it.")
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

    /// `{"count": N, "results": [...]}`, `count` only when asked for.
    static func encode(_ page: LocationPage) -> ByteBuffer {
        ByteBuffer(bytes: LocationJSON.page(page.results, count: page.count))
    }
}
