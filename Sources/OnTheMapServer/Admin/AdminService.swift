import OnTheMapModel
import OnTheMapStore

/// What an admin may do, with its rules: never the last active admin, every action audited (in
/// the store, in the action's own transaction). The caller is an admin (`AdminGuard` saw to it),
/// or, for the actions on pins and reports scoped to one `course`, one of its instructors
/// (`CourseAccess`): then a pin of another course is not there.
struct AdminService: Sendable {
    let store: any ModerationStore & AccountStore & LocationStore
    let clock: WallClock
    /// A reset link works this long, and once.
    let passwordResetLifetimeMillis: Int64 = 72 * 3_600_000

    func accounts(search: String?, limit: Int, skip: Int) async throws -> [AccountWithPin] {
        try await store.accountsForAdmin(search: search, limit: limit, skip: skip)
    }

    func setAdmin(_ key: String, to isAdmin: Bool, by admin: Account) async throws -> Account {
        let target = try await account(key)
        return try Self.outcome(try await store.setAdmin(
            key: key, isAdmin: isAdmin, audit: audit(by: admin, isAdmin ? .grantAdmin : .revokeAdmin, target: key, detail: target.email)))
    }

    func setDisabled(_ key: String, to disabled: Bool, by admin: Account) async throws -> Account {
        let target = try await account(key)
        let now = clock.nowMillis()
        return try Self.outcome(try await store.setDisabled(
            key: key, disabledAt: disabled ? now : nil,
            audit: audit(by: admin, disabled ? .disableAccount : .enableAccount, target: key, detail: target.email, at: now)))
    }

    /// A one-time token for the account's new password; the admin passes the link on.
    func issuePasswordReset(_ key: String, by admin: Account) async throws -> (token: String, expiresAt: Int64) {
        let target = try await account(key)
        let token = Identifiers.token()
        let now = clock.nowMillis()
        let expiresAt = now + passwordResetLifetimeMillis
        try await store.insertPasswordReset(
            tokenHash: SessionToken.hash(token), accountKey: key, now: now, expiresAt: expiresAt,
            audit: audit(by: admin, .issuePasswordReset, target: key, detail: target.email, at: now))
        return (token, expiresAt)
    }

    func locations(hiddenOnly: Bool, limit: Int, skip: Int) async throws -> [OwnedLocation] {
        try await store.locationsForAdmin(hiddenOnly: hiddenOnly, limit: limit, skip: skip)
    }

    /// Pins waiting for approval, of `course` or of every course.
    func awaitingApproval(limit: Int, skip: Int, in course: CourseID? = nil) async throws -> [OwnedLocation] {
        try await store.locationsAwaitingApproval(in: course, limit: limit, skip: skip)
    }

    func setHidden(_ objectId: String, to hidden: Bool, by admin: Account, in course: CourseID? = nil) async throws -> OwnedLocation {
        let pin = try await location(objectId, in: course)
        let now = clock.nowMillis()
        let action: AuditEntry.Action = pin.awaitingApproval ? (hidden ? .declineLocation : .approveLocation) : (hidden ? .hideLocation : .showLocation)
        let changed = try await store.setHidden(
            objectId: objectId, hiddenAt: hidden ? now : nil,
            audit: audit(by: admin, action, target: objectId, detail: Self.describe(pin.location), at: now, course: pin.course))
        guard let changed else { throw APIError.notFound("No location with objectId \(objectId).") }
        return changed
    }

    func delete(_ objectId: String, by admin: Account) async throws {
        let pin = try await location(objectId)
        guard try await store.deleteLocation(
            objectId: objectId, audit: audit(by: admin, .deleteLocation, target: objectId, detail: Self.describe(pin.location), course: pin.course)) else {
            throw APIError.notFound("No location with objectId \(objectId).")
        }
    }

    /// A pin's reports, as the admin area shows them: together, with the pin (nil once deleted).
    struct ReportedPin: Sendable {
        let objectId: String
        let pin: OwnedLocation?
        let reports: [Report]
    }

    /// Reports grouped by pin, the most recently reported pin first: a page of pins, of `course`
    /// or of every course.
    func reports(openOnly: Bool, limit: Int, skip: Int, in course: CourseID? = nil) async throws -> [ReportedPin] {
        var pins: [ReportedPin] = []
        for (objectId, reports) in try await store.reportedPins(openOnly: openOnly, limit: limit, skip: skip, in: course) {
            pins.append(ReportedPin(objectId: objectId, pin: try await store.location(objectId: objectId), reports: reports))
        }
        return pins
    }

    /// The pin's open reports, closed with nothing done; how many. Scoped to a `course`, only a
    /// pin of that course's (one still there).
    func dismissReports(_ objectId: String, by admin: Account, in course: CourseID? = nil) async throws -> Int {
        let now = clock.nowMillis()
        if course != nil { _ = try await location(objectId, in: course) }
        let detail = try await store.location(objectId: objectId).map { Self.describe($0.location) } ?? "a deleted pin"
        // The entry's course is the reports' (the pin may be gone): the store writes it.
        return try await store.dismissReports(
            objectId: objectId, by: admin.key, now: now, audit: audit(by: admin, .dismissReports, target: objectId, detail: detail, at: now))
    }

    func auditLog(limit: Int, before: Int64?, in course: CourseID? = nil) async throws -> [AuditEntry] {
        try await store.auditLog(limit: limit, before: before, in: course)
    }

    private func account(_ key: String) async throws -> Account {
        guard let account = try await store.account(key: key) else { throw APIError.notFound("No account with key \(key).") }
        return account
    }

    /// The pin, of `course` when one is given.
    private func location(_ objectId: String, in course: CourseID? = nil) async throws -> OwnedLocation {
        guard let pin = try await store.location(objectId: objectId), course == nil || pin.course == course else {
            throw APIError.notFound("No location with objectId \(objectId).")
        }
        return pin
    }

    private func audit(
        by admin: Account, _ action: AuditEntry.Action, target: String, detail: String, at: Int64? = nil, course: CourseID? = nil
    ) -> AuditEntry {
        AuditEntry(
            at: at ?? clock.nowMillis(), actorKey: admin.key, actorEmail: admin.email, action: action, target: target, detail: detail, course: course)
    }

    /// "Lyon, France, by Ada Lovelace": what the log and the admin read.
    static func describe(_ location: StudentLocation) -> String {
        "\(location.mapString), by \(location.firstName) \(location.lastName)"
    }

    private static func outcome(_ change: AccountChange) throws -> Account {
        switch change {
        case .changed(let account): return account
        case .notFound: throw APIError.notFound("No such account.")
        case .lastAdmin: throw APIError.lastAdmin
        }
    }
}
