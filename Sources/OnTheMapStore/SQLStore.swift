import Logging
import OnTheMapModel
import SQLKit

/// The one store implementation: plain SQL through SQLKit, so the same code runs on SQLite and
/// PostgreSQL. Every write is a single statement, hence atomic without an explicit transaction.
public struct SQLStore: Sendable {
    let db: any SQLDatabase

    /// Wraps a database; call `migrate` before first use.
    public init(database: any SQLDatabase) {
        self.db = database
    }

    /// Brings the schema up to date.
    public func migrate(logger: Logger) async throws {
        try await Schema.migrate(db, logger: logger)
    }
}

extension SQLStore: StoreHealth {
    public func ping() async throws {
        _ = try await db.raw("SELECT 1 AS ok").first()
    }
}

extension SQLStore: AccountStore {
    private static let accountColumns = "key, email, password_hash, first_name, last_name, is_admin, created_at"

    public func insertAccount(_ account: Account) async throws {
        do {
            try await db.raw("""
                INSERT INTO accounts (\(unsafeRaw: Self.accountColumns))
                VALUES (\(bind: account.key), \(bind: account.email), \(bind: account.passwordHash),
                        \(bind: account.firstName), \(bind: account.lastName), \(bind: account.isAdmin), \(bind: account.createdAt))
                """).run()
        } catch {
            // Which constraint failed is worded differently by each database: ask the data instead.
            if try await self.account(email: account.email) != nil { throw StoreError.emailTaken }
            if try await self.account(key: account.key) != nil { throw StoreError.keyTaken }
            throw error
        }
    }

    public func account(key: String) async throws -> Account? {
        try await db.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts WHERE key = \(bind: key)")
            .first().map(Self.account(from:))
    }

    public func account(email: String) async throws -> Account? {
        try await db.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts WHERE email = \(bind: email)")
            .first().map(Self.account(from:))
    }

    public func allAccounts() async throws -> [Account] {
        try await db.raw("SELECT \(unsafeRaw: Self.accountColumns) FROM accounts ORDER BY created_at, key")
            .all().map(Self.account(from:))
    }

    public func deleteAccount(key: String) async throws -> Bool {
        try await db.raw("DELETE FROM accounts WHERE key = \(bind: key) RETURNING key").first() != nil
    }

    private static func account(from row: any SQLRow) throws -> Account {
        Account(
            key: try row.decode(column: "key", as: String.self),
            email: try row.decode(column: "email", as: String.self),
            firstName: try row.decode(column: "first_name", as: String.self),
            lastName: try row.decode(column: "last_name", as: String.self),
            passwordHash: try row.decode(column: "password_hash", as: String.self),
            isAdmin: try row.decode(column: "is_admin", as: Bool.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self))
    }
}

extension SQLStore: SessionStore {
    public func insertSession(_ session: SessionRecord) async throws {
        try await db.raw("""
            INSERT INTO sessions (token_hash, account_key, created_at, expires_at)
            VALUES (\(bind: session.tokenHash), \(bind: session.accountKey), \(bind: session.createdAt), \(bind: session.expiresAt))
            """).run()
    }

    public func session(tokenHash: String, now: Int64) async throws -> SessionRecord? {
        guard let row = try await db.raw("""
            SELECT token_hash, account_key, created_at, expires_at FROM sessions
            WHERE token_hash = \(bind: tokenHash) AND expires_at > \(bind: now)
            """).first() else { return nil }
        return SessionRecord(
            tokenHash: try row.decode(column: "token_hash", as: String.self),
            accountKey: try row.decode(column: "account_key", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self))
    }

    public func deleteSession(tokenHash: String) async throws {
        try await db.raw("DELETE FROM sessions WHERE token_hash = \(bind: tokenHash)").run()
    }

    public func deleteExpiredSessions(now: Int64) async throws -> Int {
        try await db.raw("DELETE FROM sessions WHERE expires_at <= \(bind: now) RETURNING token_hash").all().count
    }
}
