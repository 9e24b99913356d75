import OnTheMapModel

/// Accounts: who can log in.
public protocol AccountStore: Sendable {
    /// Stores a new account. Throws `StoreError.emailTaken` or `.keyTaken` on a clash.
    func insertAccount(_ account: Account) async throws
    func account(key: String) async throws -> Account?
    /// Looks up by the normalized (lowercased) address.
    func account(email: String) async throws -> Account?
    /// Every account, oldest first.
    func allAccounts() async throws -> [Account]
    /// Removes the account with its sessions and its location; false when there was none.
    func deleteAccount(key: String) async throws -> Bool
    /// Replaces the account's password hash only if it is still `old` (a hash in an older scheme
    /// replaced after a login), so that a password changed meanwhile is never overwritten.
    func replacePasswordHash(key: String, old: String, new: String) async throws
}

/// Login sessions, stored by the hash of their token.
public protocol SessionStore: Sendable {
    func insertSession(_ session: SessionRecord) async throws
    /// The account whose session this is, its role in `course` and when the session's idle bound
    /// falls, if the session exists and has not expired, nor gone unused past that bound, at `now`
    /// (microseconds): one read for what every request that carries a session asks.
    func session(tokenHash: String, now: Int64, in course: CourseID) async throws -> LiveSession?
    /// Moves a session's idle bound to `until` (microseconds).
    func extendSessionIdle(tokenHash: String, until: Int64) async throws
    /// Records that the session's holder typed their password again at `at` (microseconds).
    func confirmSessionPassword(tokenHash: String, at: Int64) async throws
    func deleteSession(tokenHash: String) async throws
    /// Drops sessions that expired before `now`; returns how many.
    func deleteExpiredSessions(now: Int64) async throws -> Int
}

/// A session found live: whose it is, their role in the course asked about (nil: not a member),
/// when it ends unless used (nil: not set yet), and when its holder last proved they know the
/// password: at its login, or by typing it again (microseconds).
public struct LiveSession: Sendable, Equatable {
    public let account: Account
    public let courseRole: CourseRole?
    public let idleExpiresAt: Int64?
    public let createdAt: Int64
    public let confirmedAt: Int64?
    /// When it ends whether used or not (microseconds; nil: not read).
    public let expiresAt: Int64?

    public init(
        account: Account, courseRole: CourseRole? = nil, idleExpiresAt: Int64?, createdAt: Int64 = 0, confirmedAt: Int64? = nil, expiresAt: Int64? = nil
    ) {
        self.account = account
        self.courseRole = courseRole
        self.idleExpiresAt = idleExpiresAt
        self.createdAt = createdAt
        self.confirmedAt = confirmedAt
        self.expiresAt = expiresAt
    }
}

extension SessionStore {
    /// The account of a live session (`session(tokenHash:now:in:)`).
    public func account(sessionTokenHash: String, now: Int64) async throws -> Account? {
        try await session(tokenHash: sessionTokenHash, now: now, in: .default)?.account
    }
}

/// Student locations.
public protocol LocationStore: Sendable {
    /// The page of `course`'s locations `query` asks for, with the total count when it asks for one.
    func locations(_ query: LocationQuery, in course: CourseID) async throws -> LocationPage
    /// Up to `limit` of `course`'s visible locations in objectId order after `objectId`: all of
    /// them, a page at a time (an export), whatever the table's size.
    func locations(in course: CourseID, after objectId: String?, limit: Int) async throws -> [StudentLocation]
    /// A location by id, in whichever course (`course` says), hidden or not (`hiddenAt` says):
    /// the public reads leave hidden ones out, and other courses' ones.
    func location(objectId: String) async throws -> OwnedLocation?
    /// The account's location in `course`, hidden or not: its owner still sees it.
    func location(ownerKey: String, in course: CourseID) async throws -> OwnedLocation?
    /// Creates a location in `course`, or, when `ownerKey` already owns one there, overwrites that
    /// one (keeping its objectId, createdAt and, when an admin hid it, its hiding: nothing about it
    /// is announced). `now` is in milliseconds. `heldForApproval` (a student's write in a course
    /// whose instructors approve pins): the pin waits, hidden, for an instructor, and a pin of theirs
    /// that showed is announced gone; one a moderator hid stays hidden.
    func saveLocation(
        _ fields: CompleteLocationFields, ownerKey: String?, in course: CourseID, now: Int64, heldForApproval: Bool
    ) async throws -> StudentLocation
    /// Applies the present fields to `course`'s location if `right` allows, checked in the write
    /// itself (no read before it). A hidden pin stays hidden, unannounced; `heldForApproval` as
    /// for `saveLocation`. On a pin with an owner the identity fields (uniqueKey, first and last
    /// name) are kept whatever `fields` say: an owned pin always shows its owner.
    func updateLocation(
        objectId: String, in course: CourseID, with fields: LocationFields, now: Int64, heldForApproval: Bool, by right: LocationWriteRight
    ) async throws -> LocationWriteOutcome<StudentLocation>
    /// Deletes `course`'s location if `right` allows, checked in the write itself.
    func deleteLocation(objectId: String, in course: CourseID, by right: LocationWriteRight) async throws -> LocationWriteOutcome<Void>
}

/// Who may change or delete a pin: checked by the write's own `WHERE`, so that a write costs no
/// read of the pin before it.
public struct LocationWriteRight: Sendable, Equatable {
    /// The writer's account; nil for an anonymous writer (`open` mode).
    public var accountKey: String?
    /// An admin may change any pin.
    public var isAdmin: Bool
    /// Pins without an owner (anonymous ones, `open` mode) may be changed by anyone.
    public var ownerlessPins: Bool

    public init(accountKey: String?, isAdmin: Bool, ownerlessPins: Bool) {
        self.accountKey = accountKey
        self.isAdmin = isAdmin
        self.ownerlessPins = ownerlessPins
    }

    /// Any pin: the server's own jobs, an admin's tools.
    public static let anyPin = LocationWriteRight(accountKey: nil, isAdmin: true, ownerlessPins: true)
}

/// What a write of one pin, checked against a `LocationWriteRight`, came to.
public enum LocationWriteOutcome<Value: Sendable>: Sendable {
    /// Written; `ownerKey` is the pin's owner.
    case written(Value, ownerKey: String?)
    /// No such pin in the course.
    case notFound
    /// The pin is there, and the right does not reach it.
    case refused
}

extension LocationWriteOutcome {
    /// The written value, nil for a pin not found or refused.
    public var written: Value? {
        if case .written(let value, _) = self { return value }
        return nil
    }
}

/// Whether the database answers (for `/readyz`).
public protocol StoreHealth: Sendable {
    func ping() async throws
}

/// A location with the account that owns it (nil for an anonymous write in `open` mode).
public struct OwnedLocation: Sendable, Equatable {
    public var location: StudentLocation
    public var ownerKey: String?
    /// When an admin hid it (milliseconds); nil while it shows.
    public var hiddenAt: Int64?
    /// The course it was posted in.
    public var course: CourseID
    /// Hidden until an instructor of its course approves it (`hiddenAt` is when it began to wait).
    public var awaitingApproval: Bool

    public var isHidden: Bool { hiddenAt != nil }

    public init(location: StudentLocation, ownerKey: String?, hiddenAt: Int64? = nil, course: CourseID = .default, awaitingApproval: Bool = false) {
        self.location = location
        self.ownerKey = ownerKey
        self.hiddenAt = hiddenAt
        self.course = course
        self.awaitingApproval = awaitingApproval
    }
}

/// One page of a list, and the total matching when it was asked for.
public struct LocationPage: Sendable, Equatable {
    public var results: [StudentLocation]
    public var count: Int?

    public init(results: [StudentLocation], count: Int?) {
        self.results = results
        self.count = count
    }
}

/// Failures a caller can act on; anything else is an internal error.
public enum StoreError: Error, Equatable {
    case emailTaken
    case keyTaken
    /// Another course has the slug.
    case slugTaken
    /// The change would leave a course without an instructor.
    case lastInstructor
    /// Too many writes are already waiting; try again shortly.
    case busy
    /// A read ran past its time budget and was stopped.
    case readTimedOut
    /// The database cannot be used right now (down, restarting, unreachable, out of disk space,
    /// read-only); `reason` says which, for the log and `/readyz`. Nothing of the request was
    /// written unless the database had committed it before it failed.
    case unavailable(reason: String)
}

extension AccountStore {
    /// Creates an account under a fresh random key, drawing again in the unlikely case the key is
    /// taken. Throws `StoreError.emailTaken` when the address already has an account.
    public func createAccount(
        email: String, firstName: String, lastName: String, passwordHash: String, isAdmin: Bool,
        createdAt: Int64 = WallClock.system.nowMillis()
    ) async throws -> Account {
        for _ in 0..<5 {
            let account = Account(
                key: Identifiers.accountKey(), email: email, firstName: firstName, lastName: lastName,
                passwordHash: passwordHash, isAdmin: isAdmin, createdAt: createdAt)
            do {
                try await insertAccount(account)
                return account
            } catch StoreError.keyTaken {
                continue
            }
        }
        throw StoreError.keyTaken
    }
}

/// Events counted per key over a sliding window (failed logins, sign-ups, geocoding per client
/// address), kept in the database so that every instance on it counts together.
public protocol RateLimitStore: Sendable {
    /// Counts an event for `key` in `bucket` at `now` (milliseconds), unless `limit` events of the
    /// last `windowMillis` are counted already. Two instances asking at once are taken in turn.
    func admitRateEvent(bucket: String, key: String, limit: Int, windowMillis: Int64, now: Int64) async throws -> RateAdmission
    /// Takes back one counted event.
    func removeRateEvent(id: Int64) async throws
    /// Forgets every event of `key` in `bucket`.
    func removeRateEvents(bucket: String, key: String) async throws
    /// Drops events from before `cutoff` (milliseconds), of every key; returns how many.
    func deleteRateEvents(before cutoff: Int64) async throws -> Int
}

/// What `admitRateEvent` decided.
public enum RateAdmission: Sendable, Equatable {
    /// Counted, as this event.
    case admitted(eventID: Int64)
    /// Over the limit; the oldest event in the window was at `oldestAt` (milliseconds).
    case refused(oldestAt: Int64)
}

/// Writes sent with an `Idempotency-Key`: the first claims the key, and its answer is kept so that
/// the same request sent again (a proxy resending after a lost connection, a client retrying) is
/// answered the same rather than done twice.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` for a request with `fingerprint` at `now` (milliseconds), or says what became
    /// of the request that claimed it first; refused when its claimant holds as many keys as
    /// `bounds` allow.
    func claimIdempotencyKey(
        _ key: String, fingerprint: String, by claimant: IdempotencyClaimant, bounds: IdempotencyBounds, now: Int64
    ) async throws -> IdempotencyClaim
    /// Keeps the answer of the request that claimed `key`.
    func completeIdempotencyKey(_ key: String, answer: String) async throws
    /// Gives `key` up: its request changed nothing (it was refused for now), so it may run again.
    func releaseIdempotencyKey(_ key: String) async throws
    /// Forgets keys claimed before `cutoff` (milliseconds); returns how many.
    func deleteIdempotencyKeys(before cutoff: Int64) async throws -> Int
    /// How many keys the table holds (claimed and answered).
    func idempotencyKeyCount() async throws -> Int
    /// Records `digest` as the server secret's when none is recorded, or when `replacing` (which
    /// drops the kept keys: they were made under the other secret); says whether the one recorded
    /// before differs.
    func recordServerSecretDigest(_ digest: String, replacing: Bool, now: Int64) async throws -> ServerSecretRecord
}

/// Who claims a key, as the database keeps it: MACs under the server's secret, never the
/// credential or the address itself.
public struct IdempotencyClaimant: Sendable, Equatable {
    /// The caller's credential, when the request carries one.
    public let caller: String?
    /// The client's address group (`AddressGroup`).
    public let address: String

    public init(caller: String?, address: String) {
        self.caller = caller
        self.address = address
    }
}

/// How many keys one caller, and one address, may hold at once (claimed or answered, the last day).
public struct IdempotencyBounds: Sendable, Equatable {
    public var perCaller: Int
    public var perAddress: Int

    public init(perCaller: Int, perAddress: Int) {
        self.perCaller = perCaller
        self.perAddress = perAddress
    }
}

/// What `claimIdempotencyKey` found.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key is this request's now.
    case claimed
    /// An earlier request with the key has been answered with `answer`.
    case answered(fingerprint: String, answer: String)
    /// An earlier request with the key, claimed at `since` (milliseconds), has no answer yet: it
    /// runs still, or the process running it stopped and its outcome is unknown.
    case inProgress(fingerprint: String, since: Int64)
    /// The key is new, but its caller or address already holds as many as the bounds allow.
    case overBound
}

/// What `recordServerSecretDigest` found.
public enum ServerSecretRecord: Sendable, Equatable {
    /// The digest is the database's (recorded now, or found).
    case recorded
    /// The database was served with another secret.
    case differs
}

/// Work that one instance of many should do at a time (the hourly clean-up).
public protocol LeaseStore: Sendable {
    /// Takes the lease `name` for `holder` until `until` (milliseconds) if nobody holds it at `now`,
    /// or renews it if `holder` does; true when `holder` holds it afterwards.
    func acquireLease(_ name: String, holder: String, now: Int64, until: Int64) async throws -> Bool
}

/// What admins change. Every change is one transaction with its audit entry: an action
/// is recorded exactly when it happened. A change that finds nothing to do (a pin already hidden,
/// an account already an admin) records nothing and answers the state as it is.
public protocol ModerationStore: Sendable {
    /// Accounts whose email or name contains `search` (any case), newest first, with their pin in
    /// the default course.
    func accountsForAdmin(search: String?, limit: Int, skip: Int) async throws -> [AccountWithPin]
    /// Every pin, hidden ones too (or only those), most recently changed first.
    func locationsForAdmin(hiddenOnly: Bool, limit: Int, skip: Int) async throws -> [OwnedLocation]
    /// Pins waiting for an instructor's approval, of `course` (nil: of every course), the most
    /// recently written first.
    func locationsAwaitingApproval(in course: CourseID?, limit: Int, skip: Int) async throws -> [OwnedLocation]
    /// Hides a pin (`hiddenAt`) or shows it again (nil), resolving its open reports when hiding;
    /// its leaving or return is announced like a deletion or a creation. A pin waiting for
    /// approval is approved by showing it, declined by hiding it (no longer waiting, and
    /// announced to no one). Nil when there is no such pin.
    func setHidden(objectId: String, hiddenAt: Int64?, audit: AuditEntry) async throws -> OwnedLocation?
    /// Deletes a pin and resolves its open reports; false when there was none.
    func deleteLocation(objectId: String, audit: AuditEntry) async throws -> Bool
    /// Makes an account an admin or not; never removes the last active admin.
    func setAdmin(key: String, isAdmin: Bool, audit: AuditEntry) async throws -> AccountChange
    /// Disables an account (ending its sessions) or enables it; never disables the last active admin.
    func setDisabled(key: String, disabledAt: Int64?, audit: AuditEntry) async throws -> AccountChange
    /// A student's report of a pin of `course`, new; or the one already open when they reported
    /// this pin before.
    func insertReport(objectId: String, in course: CourseID, reporterKey: String, reason: ReportReason, now: Int64) async throws
        -> (report: Report, isNew: Bool)
    /// Reports, newest first: the open ones, or all; of `course`, or of every course for nil.
    func reports(openOnly: Bool, limit: Int, in course: CourseID?) async throws -> [Report]
    /// Reported pins, the most recently reported first, a page of `limit` after `skip`, each with
    /// its reports (the open ones, or all), newest first; of `course`, or of every course for nil.
    func reportedPins(openOnly: Bool, limit: Int, skip: Int, in course: CourseID?) async throws -> [(objectId: String, reports: [Report])]
    /// Resolves the pin's open reports as dismissed; how many there were.
    func dismissReports(objectId: String, by adminKey: String, now: Int64, audit: AuditEntry) async throws -> Int
    /// The audit log, newest first, from before entry `before` when given; the entries about
    /// `course`'s pins, or every entry for nil.
    func auditLog(limit: Int, before: Int64?, in course: CourseID?) async throws -> [AuditEntry]
    /// Stores a one-time password reset for the account, replacing any earlier one.
    func insertPasswordReset(tokenHash: String, accountKey: String, now: Int64, expiresAt: Int64, audit: AuditEntry) async throws
    /// Whether a reset with this token hash exists and has not expired.
    func passwordResetIsLive(tokenHash: String, now: Int64) async throws -> Bool
    /// Uses a reset once: sets the password, ends every session. The account key, or nil when the
    /// token is unknown, used or expired.
    func redeemPasswordReset(tokenHash: String, newPasswordHash: String, now: Int64) async throws -> String?
}

/// An account as the admin area lists it.
public struct AccountWithPin: Sendable, Equatable {
    public var account: Account
    public var pin: OwnedLocation?

    public init(account: Account, pin: OwnedLocation?) {
        self.account = account
        self.pin = pin
    }
}

/// What an account change came to.
public enum AccountChange: Sendable, Equatable {
    case changed(Account)
    case notFound
    /// Refused: it would leave no active admin.
    case lastAdmin
}

extension LocationStore {
    /// A write that shows at once (or stays as a moderator left it).
    public func saveLocation(_ fields: CompleteLocationFields, ownerKey: String?, in course: CourseID, now: Int64) async throws -> StudentLocation {
        try await saveLocation(fields, ownerKey: ownerKey, in: course, now: now, heldForApproval: false)
    }

    public func updateLocation(objectId: String, in course: CourseID, with fields: LocationFields, now: Int64) async throws -> StudentLocation? {
        try await updateLocation(objectId: objectId, in: course, with: fields, now: now, heldForApproval: false)
    }

    /// Applies the present fields to `course`'s location, whoever owns it; nil when it has no such location.
    public func updateLocation(
        objectId: String, in course: CourseID, with fields: LocationFields, now: Int64, heldForApproval: Bool
    ) async throws -> StudentLocation? {
        try await updateLocation(objectId: objectId, in: course, with: fields, now: now, heldForApproval: heldForApproval, by: .anyPin).written
    }

    /// Deletes `course`'s location, whoever owns it; false when it has no such location.
    public func deleteLocation(objectId: String, in course: CourseID) async throws -> Bool {
        try await deleteLocation(objectId: objectId, in: course, by: .anyPin).written != nil
    }

    /// Every visible location of `course` (named `slug` in the file, when given) as `format`,
    /// handed to `write` a page of text at a time (header, pages, footer): an export of any size in
    /// constant memory. Returns how many locations.
    @discardableResult
    public func export(
        _ course: CourseID, named slug: CourseSlug? = nil, as format: ExportFormat, pageSize: Int = 1000, to write: (String) async throws -> Void
    ) async throws -> Int {
        var count = 0
        try await write(format.header(course: slug))
        var after: String?
        while true {
            let page = try await locations(in: course, after: after, limit: pageSize)
            var text = ""
            for location in page {
                text += format.entry(location, first: count == 0)
                count += 1
            }
            try await write(text)
            guard page.count == pageSize, let last = page.last else { break }
            after = last.objectId
        }
        try await write(format.footer)
        return count
    }
}
