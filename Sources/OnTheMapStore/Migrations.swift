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
        // Every order key the contract names reads its first page from an index (objectId breaks
        // ties, as in the query), and the total behind count=1 is kept by the database itself rather
        // than counted row by row. (SQLite trigger syntax: PostgreSQL will need its own.)
        Migration(version: 2, name: "indexes for each listed order key, a kept row count", statements: [
            "CREATE INDEX student_locations_by_created ON student_locations (created_at, object_id)",
            "CREATE INDEX student_locations_by_last_name ON student_locations (last_name, object_id)",
            "CREATE INDEX student_locations_by_first_name ON student_locations (first_name, object_id)",
            "CREATE TABLE row_counts (table_name TEXT PRIMARY KEY, row_count BIGINT NOT NULL)",
            "INSERT INTO row_counts (table_name, row_count) SELECT 'student_locations', COUNT(*) FROM student_locations",
            """
            CREATE TRIGGER student_locations_count_insert AFTER INSERT ON student_locations BEGIN
                UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'student_locations';
            END
            """,
            """
            CREATE TRIGGER student_locations_count_delete AFTER DELETE ON student_locations BEGIN
                UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'student_locations';
            END
            """,
        ]),
    ]

    /// Applies every migration newer than the database, each as one atomic write.
    static func migrate(writer: any StoreWriter, logger: Logger) async throws {
        try await writer.run(SQLQueryString(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"))
        // Read on the writer, the connection that applies them, and free of the reads' time budget.
        let current = try await writer.run(SQLQueryString("SELECT MAX(version) AS version FROM schema_migrations")).first?
            .decode(column: "version", as: Int?.self) ?? 0
        for migration in migrations where migration.version > current {
            let record = SQLQueryString("""
                INSERT INTO schema_migrations (version, name, applied_at)
                VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: WallClock.nowMillis()))
                """)
            let statements: [any SQLExpression] = migration.statements.map { SQLQueryString($0) } + [record]
            try await writer.perform(WriteUnit(statements) { _ in ((), []) })
            logger.info("Applied migration \(migration.version): \(migration.name)")
        }
    }
}
