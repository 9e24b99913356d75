import OnTheMapModel
import SQLKit

/// Thrown inside a moderation write that found nothing to change: the transaction, and with it the
/// audit entry, is undone.
private struct NothingChanged: Error {}

extension SQLStore: ModerationStore {
    public func accountsForAdmin(search: String?, limit: Int, skip: Int) async throws -> [AccountWithPin] {
        var condition: SQLQueryString = ""
        if let search, !search.isEmpty, search.isStorable {
            let pattern = "%" + search.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
            condition = """
                WHERE LOWER(email) LIKE \(bind: pattern) ESCAPE '\\' OR LOWER(first_name || ' ' || last_name) LIKE \(bind: pattern) ESCAPE '\\'
                """
        }
        let accounts = try await reader.raw("""
            SELECT \(unsafeRaw: Self.accountColumns) FROM accounts \(condition)
            ORDER BY created_at DESC, key LIMIT \(bind: limit) OFFSET \(bind: skip)
            """).all().map(Self.account(from:))
        guard !accounts.isEmpty else { return [] }
        // Their pins in a second read: both tables name columns alike (created_at, first_name).
        let pins = try await reader.raw("""
            SELECT \(unsafeRaw: Self.locationColumnsAndHidden) FROM student_locations
            WHERE owner_key IN (\(binds: accounts.map(\.key))) AND course_id = \(bind: CourseID.default.rawValue)
            """).all().map(Self.owned(from:))
        // One per owner in a course (its unique key).
        let pinByOwner = Dictionary(pins.compactMap { pin in pin.ownerKey.map { ($0, pin) } }, uniquingKeysWith: { first, _ in first })
        return accounts.map { AccountWithPin(account: $0, pin: pinByOwner[$0.key]) }
    }

    public func locationsForAdmin(hiddenOnly: Bool, limit: Int, skip: Int) async throws -> [OwnedLocation] {
        let condition: SQLQueryString = hiddenOnly ? "WHERE hidden_at IS NOT NULL" : ""
        return try await reader.raw("""
            SELECT \(unsafeRaw: Self.locationColumnsAndHidden) FROM student_locations \(condition)
            ORDER BY updated_at DESC, object_id LIMIT \(bind: limit) OFFSET \(bind: skip)
            """).all().map(Self.owned(from:))
    }

    public func setHidden(objectId: String, hiddenAt: Int64?, audit: AuditEntry) async throws -> OwnedLocation? {
        guard objectId.isStorable else { return nil }
        let returning = " RETURNING \(Self.locationColumnsAndHidden)"
        // Hiding a pin that waits for approval declines it: still hidden, no longer waiting, and
        // nothing to announce, as no one else saw it. Showing one approves it.
        let changes: [SQLQueryString] = hiddenAt.map { at in [
            """
            UPDATE student_locations SET awaiting_approval = FALSE WHERE object_id = \(bind: objectId) AND awaiting_approval\(unsafeRaw: returning)
            """,
            "UPDATE student_locations SET hidden_at = \(bind: at) WHERE object_id = \(bind: objectId) AND hidden_at IS NULL\(unsafeRaw: returning)",
        ] } ?? [
            """
            UPDATE student_locations SET hidden_at = NULL, awaiting_approval = FALSE
            WHERE object_id = \(bind: objectId) AND hidden_at IS NOT NULL\(unsafeRaw: returning)
            """,
        ]
        var statements: [any SQLExpression] = changes
        if let hiddenAt { statements.append(Self.resolveReports(objectId, as: "hidden", by: audit.actorKey, at: hiddenAt)) }
        statements.append(Self.insert(audit))
        do {
            return try await writer.perform(WriteUnit(statements) { rows in
                guard let (index, row) = rows.prefix(changes.count).enumerated().lazy.compactMap({ i, r in r.first.map { (i, $0) } }).first else {
                    throw NothingChanged()
                }
                let owned = try Self.owned(from: row)
                // The decline (the first of two) announces nothing.
                if hiddenAt != nil, index == 0 { return (owned, []) }
                return (owned, [owned.isHidden ? .deleted(objectId: objectId, in: owned.course) : .created(owned.location, in: owned.course)])
            })
        } catch is NothingChanged {
            return try await location(objectId: objectId)
        }
    }

    public func deleteLocation(objectId: String, audit: AuditEntry) async throws -> Bool {
        guard objectId.isStorable else { return false }
        do {
            return try await writer.perform(WriteUnit([
                SQLQueryString("DELETE FROM student_locations WHERE object_id = \(bind: objectId) RETURNING course_id"),
                Self.resolveReports(objectId, as: "deleted", by: audit.actorKey, at: audit.at),
                Self.insert(audit),
            ]) { rows in
                guard let row = rows[0].first else { throw NothingChanged() }
                return (true, [.deleted(objectId: objectId, in: CourseID(rawValue: try row.decode(column: "course_id", as: Int64.self)))])
            })
        } catch is NothingChanged {
            return false
        }
    }

    public func setAdmin(key: String, isAdmin: Bool, audit: AuditEntry) async throws -> AccountChange {
        guard !isAdmin else {
            return try await changeAccount(key, "UPDATE accounts SET is_admin = TRUE WHERE key = \(bind: key) AND NOT is_admin", audit: audit)
        }
        // Still an admin after the update matched nothing: it was the last active one.
        return try await changeAccount(
            key, "UPDATE accounts SET is_admin = FALSE WHERE key = \(bind: key) AND is_admin AND \(Self.anotherActiveAdmin(than: key))",
            audit: audit, stillBlocked: { $0.isAdmin })
    }

    /// Disabling also hides the account's pin (at the same moment, so that enabling it again can
    /// tell that hiding from an admin's own and show the pin again); both are announced.
    public func setDisabled(key: String, disabledAt: Int64?, audit: AuditEntry) async throws -> AccountChange {
        guard let disabledAt else {
            // Read before the account's disabled_at is cleared, in the same transaction.
            let showAgain = SQLQueryString("""
                UPDATE student_locations SET hidden_at = NULL
                WHERE owner_key = \(bind: key) AND hidden_at = (SELECT disabled_at FROM accounts WHERE key = \(bind: key))
                RETURNING \(unsafeRaw: Self.locationColumnsAndHidden)
                """)
            return try await changeAccount(
                key, "UPDATE accounts SET disabled_at = NULL WHERE key = \(bind: key) AND disabled_at IS NOT NULL",
                pin: (showAgain, before: true), audit: audit)
        }
        let hide = SQLQueryString("""
            UPDATE student_locations SET hidden_at = \(bind: disabledAt) WHERE owner_key = \(bind: key) AND hidden_at IS NULL
            RETURNING \(unsafeRaw: Self.locationColumnsAndHidden)
            """)
        return try await changeAccount(key, """
            UPDATE accounts SET disabled_at = \(bind: disabledAt)
            WHERE key = \(bind: key) AND disabled_at IS NULL AND (NOT is_admin OR \(Self.anotherActiveAdmin(than: key)))
            """, also: [SQLQueryString("DELETE FROM sessions WHERE account_key = \(bind: key)")], pin: (hide, before: false), audit: audit,
            // Still enabled after the update matched nothing: an admin, the last active one.
            stillBlocked: { !$0.isDisabled })
    }

    public func insertReport(
        objectId: String, in course: CourseID, reporterKey: String, reason: ReportReason, now: Int64
    ) async throws -> (report: Report, isNew: Bool) {
        let open: SQLQueryString = "SELECT \(unsafeRaw: Self.reportColumns) FROM reports WHERE object_id = \(bind: objectId) AND reporter_key = \(bind: reporterKey) AND resolved_at IS NULL"
        return try await writer.perform(WriteUnit([
            SQLQueryString("""
                INSERT INTO reports (object_id, course_id, reporter_key, reason, created_at)
                SELECT \(bind: objectId), \(bind: course.rawValue), \(bind: reporterKey), \(bind: reason.rawValue), \(bind: now)
                WHERE NOT EXISTS (SELECT 1 FROM reports WHERE object_id = \(bind: objectId) AND reporter_key = \(bind: reporterKey) AND resolved_at IS NULL)
                RETURNING id
                """),
            open,
        ]) { rows in
            guard let row = rows[1].first else { throw NothingChanged() }
            return ((try Self.report(from: row), !rows[0].isEmpty), [])
        })
    }

    public func reports(openOnly: Bool, limit: Int, in course: CourseID?) async throws -> [Report] {
        let condition = Self.reportsCondition(openOnly: openOnly, in: course)
        return try await reader.raw("SELECT \(unsafeRaw: Self.reportColumns) FROM reports \(condition) ORDER BY id DESC LIMIT \(bind: limit)")
            .all().map(Self.report(from:))
    }

    public func reportedPins(openOnly: Bool, limit: Int, skip: Int, in course: CourseID?) async throws -> [(objectId: String, reports: [Report])] {
        let condition = Self.reportsCondition(openOnly: openOnly, in: course)
        let pins = try await reader.raw("""
            SELECT object_id, MAX(id) AS latest FROM reports \(condition)
            GROUP BY object_id ORDER BY latest DESC LIMIT \(bind: limit) OFFSET \(bind: skip)
            """).all().map { try $0.decode(column: "object_id", as: String.self) }
        guard !pins.isEmpty else { return [] }
        let reports = try await reader.raw("""
            SELECT \(unsafeRaw: Self.reportColumns) FROM reports
            WHERE object_id IN (\(SQLList(pins.map { SQLBind($0) })))\(unsafeRaw: openOnly ? " AND resolved_at IS NULL" : "")
            ORDER BY id DESC
            """).all().map(Self.report(from:))
        let byPin = Dictionary(grouping: reports, by: \.objectId)
        return pins.map { ($0, byPin[$0] ?? []) }
    }

    /// The audit entry is written in the course of the pin's reports, whatever `audit` says.
    public func dismissReports(objectId: String, by adminKey: String, now: Int64, audit: AuditEntry) async throws -> Int {
        do {
            return try await writer.perform(WriteUnit([
                Self.resolveReports(objectId, as: "dismissed", by: adminKey, at: now) + " RETURNING id",
                Self.insert(audit, courseOfReportsOn: objectId),
            ]) { rows in
                guard !rows[0].isEmpty else { throw NothingChanged() }
                return (rows[0].count, [])
            })
        } catch is NothingChanged {
            return 0
        }
    }

    public func auditLog(limit: Int, before: Int64?, in course: CourseID?) async throws -> [AuditEntry] {
        var conditions: [SQLQueryString] = []
        if let before { conditions.append("id < \(bind: before)") }
        if let course { conditions.append("course_id = \(bind: course.rawValue)") }
        let condition: SQLQueryString = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await reader.raw("""
            SELECT id, at, actor_key, actor_email, action, target, detail, course_id FROM audit_log \(condition)
            ORDER BY id DESC LIMIT \(bind: limit)
            """).all().map { row in
            AuditEntry(
                id: try row.decode(column: "id", as: Int64.self), at: try row.decode(column: "at", as: Int64.self),
                actorKey: try row.optionalString(column: "actor_key"), actorEmail: try row.decode(column: "actor_email", as: String.self),
                action: AuditEntry.Action(rawValue: try row.decode(column: "action", as: String.self)) ?? .dismissReports,
                target: try row.decode(column: "target", as: String.self), detail: try row.decode(column: "detail", as: String.self),
                course: try row.optionalInt64(column: "course_id").map(CourseID.init(rawValue:)))
        }
    }

    public func insertPasswordReset(tokenHash: String, accountKey: String, now: Int64, expiresAt: Int64, audit: AuditEntry) async throws {
        try await writer.perform(WriteUnit([
            SQLQueryString("DELETE FROM password_resets WHERE account_key = \(bind: accountKey)"),
            SQLQueryString("""
                INSERT INTO password_resets (token_hash, account_key, created_at, expires_at)
                VALUES (\(bind: tokenHash), \(bind: accountKey), \(bind: now), \(bind: expiresAt))
                """),
            Self.insert(audit),
        ]) { _ in ((), []) })
    }

    public func passwordResetIsLive(tokenHash: String, now: Int64) async throws -> Bool {
        guard tokenHash.isStorable else { return false }
        return try await !reader.raw(
            "SELECT 1 AS live FROM password_resets WHERE token_hash = \(bind: tokenHash) AND expires_at > \(bind: now)").all().isEmpty
    }

    public func redeemPasswordReset(tokenHash: String, newPasswordHash: String, now: Int64) async throws -> String? {
        guard tokenHash.isStorable else { return nil }
        let owner: SQLQueryString = "SELECT account_key FROM password_resets WHERE token_hash = \(bind: tokenHash) AND expires_at > \(bind: now)"
        let reset = try await writer.perform(WriteUnit([
            "UPDATE accounts SET password_hash = \(bind: newPasswordHash) WHERE key = (\(owner)) RETURNING key",
            "DELETE FROM sessions WHERE account_key = (\(owner))",
            // Used or expired, it goes.
            SQLQueryString("DELETE FROM password_resets WHERE token_hash = \(bind: tokenHash)"),
        ]) { rows in
            (try rows[0].first?.decode(column: "key", as: String.self), [])
        })
        if let reset { await sessionsChanged(of: [reset]) }
        return reset
    }
}

extension SQLStore {
    static let reportColumns = "id, object_id, course_id, reporter_key, reason, created_at, resolved_at, resolved_by, resolution"

    /// Reports open only, or all; of one course, or every course's.
    static func reportsCondition(openOnly: Bool, in course: CourseID?) -> SQLQueryString {
        var conditions: [SQLQueryString] = []
        if openOnly { conditions.append("resolved_at IS NULL") }
        if let course { conditions.append("course_id = \(bind: course.rawValue)") }
        return conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }

    static func report(from row: any SQLRow) throws -> Report {
        Report(
            id: try row.decode(column: "id", as: Int64.self), objectId: try row.decode(column: "object_id", as: String.self),
            course: CourseID(rawValue: try row.decode(column: "course_id", as: Int64.self)),
            reporterKey: try row.decode(column: "reporter_key", as: String.self),
            reason: ReportReason(rawValue: try row.decode(column: "reason", as: String.self)) ?? .other,
            createdAt: try row.decode(column: "created_at", as: Int64.self), resolvedAt: try row.optionalInt64(column: "resolved_at"),
            resolvedBy: try row.optionalString(column: "resolved_by"), resolution: try row.optionalString(column: "resolution"))
    }

    /// True while some other account is an admin and not disabled.
    static func anotherActiveAdmin(than key: String) -> SQLQueryString {
        "EXISTS (SELECT 1 FROM accounts other WHERE other.is_admin AND other.disabled_at IS NULL AND other.key <> \(bind: key))"
    }

    static func resolveReports(_ objectId: String, as resolution: String, by adminKey: String?, at now: Int64) -> SQLQueryString {
        """
        UPDATE reports SET resolved_at = \(bind: now), resolved_by = \(bind: adminKey), resolution = \(bind: resolution)
        WHERE object_id = \(bind: objectId) AND resolved_at IS NULL
        """
    }

    /// The entry, in the course that `source` (`FROM courses WHERE …`) finds, and only when it finds
    /// one: a course's own change, written with it (the values are cast so that PostgreSQL knows
    /// their types outside a VALUES list).
    static func insert(_ audit: AuditEntry, in source: SQLQueryString) -> SQLQueryString {
        """
        INSERT INTO audit_log (at, actor_key, actor_email, action, target, detail, course_id)
        SELECT CAST(\(bind: audit.at) AS BIGINT), CAST(\(bind: audit.actorKey) AS TEXT), CAST(\(bind: audit.actorEmail) AS TEXT),
               CAST(\(bind: audit.action.rawValue) AS TEXT), CAST(\(bind: audit.target) AS TEXT), CAST(\(bind: audit.detail) AS TEXT), id
        \(source)
        """
    }

    /// The entry, in no course, only when `source` (`FROM … WHERE …`) finds a row: written with a
    /// change that may find nothing to change.
    static func insert(_ audit: AuditEntry, when source: SQLQueryString) -> SQLQueryString {
        """
        INSERT INTO audit_log (at, actor_key, actor_email, action, target, detail, course_id)
        SELECT CAST(\(bind: audit.at) AS BIGINT), CAST(\(bind: audit.actorKey) AS TEXT), CAST(\(bind: audit.actorEmail) AS TEXT),
               CAST(\(bind: audit.action.rawValue) AS TEXT), CAST(\(bind: audit.target) AS TEXT), CAST(\(bind: audit.detail) AS TEXT), NULL
        \(source)
        """
    }

    /// Writes `audit` on its own: for a change made of several writes (a class list added).
    public func record(_ audit: AuditEntry) async throws {
        try await writer.run(Self.insert(audit))
    }

    /// The entry, in its course; or, for `courseOfReportsOn`, in the course of that pin's reports
    /// (which outlive the pin).
    static func insert(_ audit: AuditEntry, courseOfReportsOn objectId: String? = nil) -> SQLQueryString {
        let course: SQLQueryString = objectId.map { "(SELECT MAX(course_id) FROM reports WHERE object_id = \(bind: $0))" }
            ?? "\(bind: audit.course?.rawValue)"
        return """
        INSERT INTO audit_log (at, actor_key, actor_email, action, target, detail, course_id)
        VALUES (\(bind: audit.at), \(bind: audit.actorKey), \(bind: audit.actorEmail), \(bind: audit.action.rawValue), \(bind: audit.target),
                \(bind: audit.detail), \(course))
        """
    }

    /// Runs `change` (an UPDATE of one account) with `also` and the audit entry, in one transaction
    /// in which no other admin change runs (`SQLFlavour.takingTurns`): two admins demoting each
    /// other at once cannot leave none.
    /// `stillBlocked` says, of the account as it is after a change that matched no row, whether the
    /// last-admin rule refused it (rather than there being nothing to do).
    /// Changes an account under the admins' lock, with `also` after it and its audit entry; `pin`
    /// changes the account's pin too (before or after the account's change), announced as the
    /// pin leaving the public map or coming back.
    private func changeAccount(
        _ key: String, _ change: SQLQueryString, also: [any SQLExpression] = [],
        pin: (statement: SQLQueryString, before: Bool)? = nil, audit: AuditEntry,
        stillBlocked: @Sendable (Account) -> Bool = { _ in false }
    ) async throws -> AccountChange {
        guard key.isStorable else { return .notFound }
        var statements: [any SQLExpression] = flavour.takingTurns(over: SQLRaw("'onthemap-admins:' || current_schema()"))
        if let pin, pin.before { statements.append(pin.statement) }
        let changeIndex = statements.count
        statements.append(change + " RETURNING \(unsafeRaw: Self.accountColumns)")
        statements += also
        if let pin, !pin.before { statements.append(pin.statement) }
        let pinIndex = pin.map { $0.before ? changeIndex - 1 : statements.count - 1 }
        statements.append(Self.insert(audit))
        do {
            let changed = try await writer.perform(WriteUnit(statements) { rows -> (AccountChange, [LocationChange.Kind]) in
                guard let row = rows[changeIndex].first else { throw NothingChanged() }
                let pins = try pinIndex.map { try rows[$0].map(Self.owned(from:)) } ?? []
                let announced: [LocationChange.Kind] = pins.map { $0.isHidden ? .deleted(objectId: $0.location.objectId, in: $0.course) : .created($0.location, in: $0.course) }
                return (.changed(try Self.account(from: row)), announced)
            })
            await sessionsChanged(of: [key])
            return changed
        } catch is NothingChanged {
            // Nothing to do, or refused: which, the account as it is says.
            guard let account = try await account(key: key) else { return .notFound }
            return stillBlocked(account) ? .lastAdmin : .changed(account)
        }
    }
}
