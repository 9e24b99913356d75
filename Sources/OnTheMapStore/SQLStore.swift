import Logging
import OnTheMapModel
import SQLKit

/// The one store implementation: plain SQL through SQLKit, so the same code runs on SQLite and
/// PostgreSQL; where their SQL differs, the engine's `flavour` supplies the piece. Reads and
/// writes take separate roads: reads run on `reader` (a pool, never waiting for a write), every
/// write goes through `writer`, which answers once it is durable and announces what changed on
/// `changes`.
public struct SQLStore: Sendable {
    let reader: any SQLDatabase
    let writer: any StoreWriter
    /// The engine's pieces of SQL where the engines differ.
    let flavour: any SQLFlavour
    /// Every committed change to a location, in commit order.
    public let changes: LocationChangeFeed
    /// Live sessions kept in memory (PostgreSQL); nil where a session's read costs no round trip.
    public let sessionCache: SessionCache?

    /// Wraps an engine's reader and writer; call `migrate` before first use.
    public init(
        reader: any SQLDatabase, writer: any StoreWriter, flavour: any SQLFlavour, changes: LocationChangeFeed, sessionCache: SessionCache? = nil
    ) {
        self.reader = reader
        self.writer = writer
        self.flavour = flavour
        self.changes = changes
        self.sessionCache = sessionCache
    }

    /// A write that changed what a session read answers for `accounts` (nil: for any account) has
    /// committed: the kept sessions go, here and on every other instance (`SessionCache`).
    func sessionsChanged(of accounts: Set<String>?) async {
        if accounts?.isEmpty == true { return }
        await sessionCache?.changed(accounts: accounts)
    }

    /// Brings the schema up to date.
    public func migrate(logger: Logger) async throws {
        try await Schema.migrate(writer: writer, flavour: flavour, logger: logger)
    }

}

extension SQLStore: StoreHealth {
    public func ping() async throws {
        _ = try await reader.raw("SELECT 1 AS ok").first()
    }
}

extension SQLStore: AccountStore {
    static let accountColumns = "key, email, password_hash, first_name, last_name, is_admin, created_at, disabled_at, last_login_at"
    /// The same, named by table, for a join with another table that has a `created_at`.
    static let qualifiedAccountColumns = accountColumns.split(separator: ",")
        .map { "accounts." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")

    public func insertAccount(_ account: Account) async throws {
        do {
            try await writer.perform(WriteUnit(Self.insert(account)) { _ in ((), []) })
        } catch {
            // Which constraint failed is worded differently by each database: ask the data instead.
            if try await self.account(email: account.email) != nil { throw StoreError.emailTaken }
            if try await self.account(key: account.key) != nil { throw StoreError.keyTaken }
            throw error
        }
    }

    /// The account, its membership of every course that everyone joins (the default course,
    /// unless an operator changed that), and of every course whose class list named its email
    /// (in the role named there).
    static func insert(_ account: Account) -> [SQLQueryString] {
        [
            """
            INSERT INTO accounts (key, email, password_hash, first_name, last_name, is_admin, created_at)
            VALUES (\(bind: account.key), \(bind: account.email), \(bind: account.passwordHash),
                    \(bind: account.firstName), \(bind: account.lastName), \(bind: account.isAdmin), \(bind: account.createdAt))
            """,
            """
            INSERT INTO course_members (course_id, account_key, role, joined_at)
            SELECT id, \(bind: account.key), 'student', \(bind: account.createdAt) FROM courses WHERE everyone_joins AND archived_at IS NULL
            """,
            """
            INSERT INTO course_members (course_id, account_key, role, joined_at)
            SELECT course_id, \(bind: account.key), role, \(bind: account.createdAt) FROM course_pending_members WHERE email = \(bind: account.email)
            ON CONFLICT (course_id, account_key) DO UPDATE SET role = excluded.role
            """,
            "DELETE FROM course_pending_members WHERE email = \(bind: account.email)",
        ]
    }

    public func account(key: String) async throws -> Account? {
        guard key.isStorable else { return nil }
        return try await reader.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts WHERE key = \(bind: key)")
            .first().map(Self.account(from:))
    }

    public func account(email: String) async throws -> Account? {
        guard email.isStorable else { return nil }
        return try await reader.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts WHERE email = \(bind: email)")
            .first().map(Self.account(from:))
    }

    public func allAccounts() async throws -> [Account] {
        try await reader.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts ORDER BY created_at, key")
            .all().map(Self.account(from:))
    }

    public func replacePasswordHash(key: String, old: String, new: String) async throws {
        let replaced = try await writer.run(SQLQueryString(
            "UPDATE accounts SET password_hash = \(bind: new) WHERE key = \(bind: key) AND password_hash = \(bind: old) RETURNING key"))
        if !replaced.isEmpty { await sessionsChanged(of: [key]) }
    }

    /// Deletes the account's location explicitly (rather than by the foreign key's cascade) so that
    /// the deletion is announced like any other.
    public func deleteAccount(key: String) async throws -> Bool {
        guard key.isStorable else { return false }
        let deleted = try await writer.perform(WriteUnit([
            SQLQueryString("DELETE FROM student_locations WHERE owner_key = \(bind: key) RETURNING object_id, course_id"),
            SQLQueryString("DELETE FROM accounts WHERE key = \(bind: key) RETURNING key"),
        ]) { rows in
            let deleted = try rows[0].map { row in
                LocationChange.Kind.deleted(
                    objectId: try row.decode(column: "object_id", as: String.self),
                    in: CourseID(rawValue: try row.decode(column: "course_id", as: Int64.self)))
            }
            return (!rows[1].isEmpty, deleted)
        })
        if deleted { await sessionsChanged(of: [key]) }
        return deleted
    }

    static func account(from row: any SQLRow) throws -> Account {
        Account(
            key: try row.decode(column: "key", as: String.self),
            email: try row.decode(column: "email", as: String.self),
            firstName: try row.decode(column: "first_name", as: String.self),
            lastName: try row.decode(column: "last_name", as: String.self),
            passwordHash: try row.decode(column: "password_hash", as: String.self),
            isAdmin: try row.decode(column: "is_admin", as: Bool.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            disabledAt: try row.optionalInt64(column: "disabled_at"),
            lastLoginAt: try row.optionalInt64(column: "last_login_at"))
    }
}

extension SQLStore: SessionStore {
    /// Also records the login on the account (`last_login_at`, milliseconds), in the same write.
    public func insertSession(_ session: SessionRecord) async throws {
        try await writer.perform(WriteUnit([
            SQLQueryString("""
                INSERT INTO sessions (token_hash, account_key, created_at, expires_at, idle_expires_at)
                VALUES (\(bind: session.tokenHash), \(bind: session.accountKey), \(bind: session.createdAt), \(bind: session.expiresAt),
                        \(bind: session.idleExpiresAt))
                """),
            SQLQueryString("UPDATE accounts SET last_login_at = \(bind: session.createdAt / 1000) WHERE key = \(bind: session.accountKey)"),
        ]) { _ in ((), []) })
    }

    public func session(tokenHash: String, now: Int64, in course: CourseID) async throws -> LiveSession? {
        guard let cache = sessionCache else { return try await readSession(tokenHash: tokenHash, now: now, in: course) }
        if let kept = cache.session(tokenHash: tokenHash, in: course, now: now) { return kept }
        let ticket = cache.ticket()
        let found = try await readSession(tokenHash: tokenHash, now: now, in: course)
        if let found, let ticket, let expiresAt = found.expiresAt {
            cache.keep(found, expiresAt: expiresAt, tokenHash: tokenHash, in: course, readUnder: ticket)
        }
        return found
    }

    private func readSession(tokenHash: String, now: Int64, in course: CourseID) async throws -> LiveSession? {
        try await reader.raw("""
            SELECT \(unsafeRaw: Self.qualifiedAccountColumns), sessions.idle_expires_at AS idle_expires_at, sessions.expires_at AS expires_at,
                sessions.created_at AS session_created_at, sessions.confirmed_at AS confirmed_at, course_members.role AS course_role
            FROM sessions JOIN accounts ON accounts.key = sessions.account_key
            LEFT JOIN course_members ON course_members.course_id = \(bind: course.rawValue) AND course_members.account_key = accounts.key
            WHERE sessions.token_hash = \(bind: tokenHash) AND sessions.expires_at > \(bind: now)
            AND (sessions.idle_expires_at IS NULL OR sessions.idle_expires_at > \(bind: now))
            """).first().map {
                LiveSession(
                    account: try Self.account(from: $0), courseRole: try $0.optionalString(column: "course_role").flatMap(CourseRole.init(rawValue:)),
                    idleExpiresAt: try $0.optionalInt64(column: "idle_expires_at"),
                    createdAt: try $0.decode(column: "session_created_at", as: Int64.self), confirmedAt: try $0.optionalInt64(column: "confirmed_at"),
                    expiresAt: try $0.decode(column: "expires_at", as: Int64.self))
            }
    }

    public func confirmSessionPassword(tokenHash: String, at: Int64) async throws {
        let rows = try await writer.run(SQLQueryString(
            "UPDATE sessions SET confirmed_at = \(bind: at) WHERE token_hash = \(bind: tokenHash) RETURNING account_key"))
        await sessionsChanged(of: try Self.accountKeys(in: rows))
    }

    public func extendSessionIdle(tokenHash: String, until: Int64) async throws {
        try await writer.run(SQLQueryString("UPDATE sessions SET idle_expires_at = \(bind: until) WHERE token_hash = \(bind: tokenHash)"))
        // Other instances' kept sessions keep the earlier bound, and are read again once past it.
        sessionCache?.extendIdle(tokenHash: tokenHash, until: until)
    }

    public func deleteSession(tokenHash: String) async throws {
        let rows = try await writer.run(SQLQueryString("DELETE FROM sessions WHERE token_hash = \(bind: tokenHash) RETURNING account_key"))
        await sessionsChanged(of: try Self.accountKeys(in: rows))
    }

    /// The `account_key` of each row, nothing to drop when there is none.
    private static func accountKeys(in rows: [any SQLRow]) throws -> Set<String> {
        Set(try rows.map { try $0.decode(column: "account_key", as: String.self) })
    }

    public func deleteExpiredSessions(now: Int64) async throws -> Int {
        try await writer.run(SQLQueryString(
            "DELETE FROM sessions WHERE expires_at <= \(bind: now) OR idle_expires_at <= \(bind: now) RETURNING token_hash")).count
    }
}

extension String {
    /// False for text no row can hold: a NUL character, which PostgreSQL refuses even in a lookup
    /// and every write refuses. A lookup by such text finds nothing, on either engine, without asking.
    var isStorable: Bool { !contains("\u{0}") }
}
