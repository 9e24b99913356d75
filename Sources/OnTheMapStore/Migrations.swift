import Logging
import OnTheMapModel
import SQLKit

/// One step of the schema, applied once and recorded in `schema_migrations`.
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: [String]
}

/// The schema, oldest first. Never edit a released migration: add a new one.
///
/// Types are chosen to mean the same on SQLite and PostgreSQL: timestamps as BIGINT milliseconds
/// (microseconds for sessions), coordinates as DOUBLE PRECISION (SQLKit's `.real` is float4 on Postgres).
enum Schema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "accounts, sessions, student locations", statements: [
            """
            CREATE TABLE accounts (
                key TEXT PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                is_admin BOOLEAN NOT NULL DEFAULT FALSE,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE sessions (
                token_hash TEXT PRIMARY KEY,
                account_key TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX sessions_by_account ON sessions (account_key)",
            "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
            """
            CREATE TABLE student_locations (
                object_id TEXT PRIMARY KEY,
                owner_key TEXT UNIQUE REFERENCES accounts(key) ON DELETE CASCADE,
                unique_key TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                map_string TEXT NOT NULL,
                media_url TEXT NOT NULL,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            // The list every client asks for: newest updatedAt first, objectId as the tie-breaker.
            "CREATE INDEX student_locations_latest ON student_locations (updated_at DESC, object_id)",
            "CREATE INDEX student_locations_by_unique_key ON student_locations (unique_key)",
        ]),
    ]

    /// Applies every migration newer than the database, each in its own transaction.
    static func migrate(_ database: any SQLDatabase, logger: Logger) async throws {
        try await database.withSession { db in
            try await db.raw("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)").run()
            let current = try await db.raw("SELECT MAX(version) AS version FROM schema_migrations").first()?
                .decode(column: "version", as: Int?.self) ?? 0
            for migration in migrations where migration.version > current {
                try await db.raw("BEGIN").run()
                do {
                    for statement in migration.statements { try await db.raw(SQLQueryString(statement)).run() }
                    let now = WallClock.nowMillis()
                    try await db.raw("INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now))").run()
                    try await db.raw("COMMIT").run()
                    logger.info("Applied migration \(migration.version): \(migration.name)")
                } catch {
                    try? await db.raw("ROLLBACK").run()
                    throw error
                }
            }
        }
    }
}
