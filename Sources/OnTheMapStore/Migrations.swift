import Logging
import OnTheMapModel
import SQLKit

/// One step of the schema, applied once and recorded in `schema_migrations`.
struct Migration: Sendable {
    let version: Int
    let name: String
    /// The statements for the database being migrated, in its engine's flavour.
    let statements: @Sendable (any SQLFlavour) -> [String]
}

/// The schema, oldest first. Never edit a released migration: add a new one.
///
/// Types are chosen to mean the same on SQLite and PostgreSQL: timestamps as BIGINT milliseconds
/// (microseconds for sessions), coordinates as DOUBLE PRECISION (SQLKit's `.real` is float4 on Postgres).
enum Schema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "accounts, sessions, student locations") { f in [
            """
            CREATE TABLE accounts (
                key \(f.text) PRIMARY KEY,
                email \(f.text) NOT NULL UNIQUE,
                password_hash \(f.text) NOT NULL,
                first_name \(f.text) NOT NULL,
                last_name \(f.text) NOT NULL,
                is_admin BOOLEAN NOT NULL DEFAULT FALSE,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE sessions (
                token_hash \(f.text) PRIMARY KEY,
                account_key \(f.text) NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX sessions_by_account ON sessions (account_key)",
            "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
            """
            CREATE TABLE student_locations (
                object_id \(f.text) PRIMARY KEY,
                owner_key \(f.text) UNIQUE REFERENCES accounts(key) ON DELETE CASCADE,
                unique_key \(f.text) NOT NULL,
                first_name \(f.text) NOT NULL,
                last_name \(f.text) NOT NULL,
                map_string \(f.text) NOT NULL,
                media_url \(f.text) NOT NULL,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            // The list every client asks for: newest updatedAt first, objectId as the tie-breaker.
            "CREATE INDEX student_locations_latest ON student_locations (updated_at DESC, object_id)",
            "CREATE INDEX student_locations_by_unique_key ON student_locations (unique_key)",
        ]},
        // Every order key docs/API.md names ("Limits on queries") reads its first page from an index
        // (objectId breaks ties, as in the query), and the total behind count=1 is kept by the
        // database itself rather than counted row by row, by triggers in each engine's syntax.
        Migration(version: 2, name: "indexes for each listed order key, a kept row count") { f in [
            "CREATE INDEX student_locations_by_created ON student_locations (created_at, object_id)",
            "CREATE INDEX student_locations_by_last_name ON student_locations (last_name, object_id)",
            "CREATE INDEX student_locations_by_first_name ON student_locations (first_name, object_id)",
            "CREATE TABLE row_counts (table_name TEXT PRIMARY KEY, row_count BIGINT NOT NULL)",
            "INSERT INTO row_counts (table_name, row_count) SELECT 'student_locations', COUNT(*) FROM student_locations",
        ] + f.rowCountTriggers },
        // What several instances must count together (failed logins, sign-ups, geocoding per
        // address), and which instance does the periodic clean-up.
        Migration(version: 3, name: "rate-limit events, leases") { f in [
            """
            CREATE TABLE rate_events (
                id \(f.generatedKey),
                bucket \(f.text) NOT NULL,
                key \(f.text) NOT NULL,
                at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX rate_events_by_key ON rate_events (bucket, key, at)",
            "CREATE INDEX rate_events_by_time ON rate_events (at)",
            """
            CREATE TABLE leases (
                name \(f.text) PRIMARY KEY,
                holder \(f.text) NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
        ]},
        // Every location change, written by the transaction that makes it, numbered in commit
        // order: the live map streams them, and a client that reconnects asks for those it missed.
        Migration(version: 4, name: "location events") { f in [
            """
            CREATE TABLE location_events (
                id \(f.generatedKey),
                kind \(f.text) NOT NULL,
                object_id \(f.text) NOT NULL,
                payload \(f.text),
                at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX location_events_by_time ON location_events (at)",
        ]},
        Migration(version: 5, name: "moderation: hidden pins, disabled accounts, reports, audit log, password resets") { f in
            Moderation.schema(f)
        },
        // Every public read asks for visible pins (`hidden_at IS NULL`): its order indexes hold only
        // those, so a page, and a deep `skip`, walk the index alone instead of looking up each row
        // to see whether it is hidden (skip=10000 went from 1 ms to 9 ms without this).
        Migration(version: 6, name: "order indexes of visible pins") { _ in
            [("student_locations_latest", "updated_at DESC, object_id"), ("student_locations_by_created", "created_at, object_id"),
             ("student_locations_by_last_name", "last_name, object_id"), ("student_locations_by_first_name", "first_name, object_id"),
             ("student_locations_by_unique_key", "unique_key")].flatMap { name, columns in [
                "DROP INDEX \(name)",
                "CREATE INDEX \(name) ON student_locations (\(columns)) WHERE hidden_at IS NULL",
            ]}
        },
        // Sign-in with OpenID Connect providers: a login between the redirect to the provider and its
        // return (in the database so that any instance can finish it), and who at which provider is
        // which account.
        Migration(version: 7, name: "external logins") { f in [
            """
            CREATE TABLE pending_logins (
                state_hash \(f.text) PRIMARY KEY,
                provider \(f.text) NOT NULL,
                nonce \(f.text) NOT NULL,
                code_verifier \(f.text) NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX pending_logins_by_expiry ON pending_logins (expires_at)",
            """
            CREATE TABLE account_identities (
                provider \(f.text) NOT NULL,
                subject \(f.text) NOT NULL,
                account_key \(f.text) NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
                email \(f.text) NOT NULL,
                linked_at BIGINT NOT NULL,
                PRIMARY KEY (provider, subject)
            )
            """,
            "CREATE INDEX account_identities_by_account ON account_identities (account_key)",
        ]},
        // PostgreSQL's location events numbered by their transaction (`TransactionOrderedIDs`) rather
        // than by a counter drawn in commit order under a lock, so that location writes commit
        // together. New ids are above every old one (a transaction id counts every transaction, each
        // event's included). The default numbers the events of instances still running the previous
        // version during a rolling upgrade, which insert without an id.
        // Ids no longer count up by one, so "was anything after this id pruned?" is answered by a
        // mark the pruning leaves: the highest id it may have deleted.
        Migration(version: 8, name: "location event ids by transaction, the log's pruning mark") { f in
            [
                "CREATE TABLE location_event_log (id INTEGER PRIMARY KEY CHECK (id = 1), pruned_through BIGINT NOT NULL)",
                "INSERT INTO location_event_log (id, pruned_through) SELECT 1, COALESCE(MIN(id) - 1, 0) FROM location_events",
            ] + f.eventIDsByTransaction
        },
        // Answers kept by `Idempotency-Key` (a day), so that a write resent by the proxy or the
        // client is answered as the first time rather than done twice. Keyed by a hash of the
        // caller's credential and the key; the answer is sealed with a key the database never sees.
        Migration(version: 9, name: "idempotency keys") { f in [
            """
            CREATE TABLE idempotency_keys (
                key \(f.text) PRIMARY KEY,
                fingerprint \(f.text) NOT NULL,
                answer \(f.text),
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX idempotency_keys_by_time ON idempotency_keys (created_at)",
        ]},
        // PostgreSQL counted visible pins row by row, each row updating the one row_counts row: in
        // a transaction that inserts or deletes n pins (an import, copy-data --replace) that row
        // gains n versions, each update walking the chain of the ones before, so n² work (a
        // million-pin import took hours). Inserts and deletes now count once per statement, from
        // its transition table; hiding and showing (one pin at a time) stay per row.
        Migration(version: 10, name: "visible pins counted per statement on PostgreSQL") { f in f.pinCountPerStatement },
        // A pin saved on PostgreSQL records its event in the same statement (`LocationWriteSQL`):
        // one round trip and no BEGIN/COMMIT instead of four. The event's JSON then needs the saved
        // row's createdAt as the wire shows it, so the database formats it exactly as
        // `WireTime.formatMillis` does, line for line (proleptic Gregorian, H. Hinnant's
        // civil-from-days, the same padding). Expand only: instances of the previous version
        // never call it.
        Migration(version: 11, name: "wire time in SQL, for pins saved in one statement") { f in f.wireTimeFunctions },
        // A pin's write deletes its earlier events (LocationEventLog.forgetting), found by this
        // index; the events kept from before are reduced to each pin's newest, so that nothing
        // hidden, deleted or made less exact is left to replay. Expand only: instances of the
        // previous version still write events as before, which replays skip once superseded.
        Migration(version: 12, name: "location events: a pin's newest only") { _ in [
            "CREATE INDEX location_events_by_object ON location_events (object_id, id)",
            "DELETE FROM location_events WHERE kind <> 'reload' AND NOT \(LocationEventLog.isNewestOfItsPin.sql)",
        ]},
        // Idempotency keys bounded per caller and per address: the claimant is kept (MACs under the
        // server's secret, never the credential or the address), so that a claim can count what
        // its claimant holds. The secret itself is never here: only a digest that tells instances
        // holding another one. Expand only: the previous version inserts keys without a claimant.
        Migration(version: 13, name: "idempotency keys by claimant, the server secret's digest") { f in [
            "ALTER TABLE idempotency_keys ADD COLUMN caller \(f.text)",
            "ALTER TABLE idempotency_keys ADD COLUMN address \(f.text)",
            "CREATE INDEX idempotency_keys_by_caller ON idempotency_keys (caller)",
            "CREATE INDEX idempotency_keys_by_address ON idempotency_keys (address)",
            "CREATE TABLE server_secret (id INTEGER PRIMARY KEY CHECK (id = 1), digest \(f.text) NOT NULL, recorded_at BIGINT NOT NULL)",
        ]},
        // A session also ends when unused for a while (`--session-idle-days`): the bound moves on
        // as the session is used. Sessions from before have none until their next use. And when
        // its holder last typed their password again (an admin changing accounts must have).
        Migration(version: 14, name: "sessions: an idle bound, the password confirmed") { _ in [
            "ALTER TABLE sessions ADD COLUMN idle_expires_at BIGINT",
            "ALTER TABLE sessions ADD COLUMN confirmed_at BIGINT",
        ]},
        Migration(version: 15, name: "courses: a map per class, the default course owning what was") { f in Courses.schema(f) },
        Migration(version: 16, name: "courses: invite links shown again, class lists before sign-up") { f in Courses.invitesAndClassLists(f) },
        Migration(version: 17, name: "courses: pins waiting for an instructor's approval") { f in Courses.approval(f) },
        Migration(version: 18, name: "LTI 1.3: platforms, deployments, the tool's keys, platform courses") { f in LTISchema.tables(f) },
        Migration(version: 19, name: "LTI 1.3: a platform course's member list and grade book") { f in LTISchema.services(f) },
    ]

    /// Applies every migration newer than the database, each as one atomic write, while no other
    /// process migrates the same database (two instances starting at once apply each exactly once).
    static func migrate(writer: any StoreWriter, flavour: any SQLFlavour, logger: Logger) async throws {
        try await writer.exclusively { writer in
            try await writer.run(SQLQueryString(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"))
            // Read on the writer, the connection that applies them, and free of the reads' time budget.
            let current = try await writer.run(SQLQueryString("SELECT MAX(version) AS version FROM schema_migrations")).first?
                .decode(column: "version", as: Int?.self) ?? 0
            for migration in migrations where migration.version > current {
                let record = SQLQueryString("""
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: WallClock.system.nowMillis()))
                    """)
                // The record goes first: should another process have applied this migration since
                // `current` was read (SQLite has no lock across writes), its key clashes and nothing runs.
                let statements: [any SQLExpression] = [record] + migration.statements(flavour).map { SQLQueryString($0) }
                do {
                    try await writer.perform(WriteUnit(statements) { _ in ((), []) })
                } catch {
                    let applied = try await writer.run(SQLQueryString(
                        "SELECT version FROM schema_migrations WHERE version = \(bind: migration.version)"))
                    if applied.isEmpty { throw error }
                    continue
                }
                logger.info("Applied migration \(migration.version): \(migration.name)")
            }
        }
    }
}
