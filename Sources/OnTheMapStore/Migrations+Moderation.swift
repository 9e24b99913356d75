/// Migration 5: what admins need to run a course. A hidden pin keeps its row (so its
/// owner still has exactly one, and posting again updates it, still hidden) and is left out of
/// every public read; the kept row count counts visible pins only.
enum Moderation {
    static func schema(_ f: any SQLFlavour) -> [String] {
        [
            "ALTER TABLE accounts ADD COLUMN disabled_at BIGINT",
            "ALTER TABLE accounts ADD COLUMN last_login_at BIGINT",
            "ALTER TABLE student_locations ADD COLUMN hidden_at BIGINT",
            "CREATE INDEX student_locations_hidden ON student_locations (hidden_at) WHERE hidden_at IS NOT NULL",
            """
            CREATE TABLE reports (
                id \(f.generatedKey),
                object_id \(f.text) NOT NULL,
                reporter_key \(f.text) NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
                reason \(f.text) NOT NULL,
                created_at BIGINT NOT NULL,
                resolved_at BIGINT,
                resolved_by \(f.text),
                resolution \(f.text)
            )
            """,
            // A student reports a pin once until an admin has looked at it.
            "CREATE UNIQUE INDEX reports_open_once ON reports (object_id, reporter_key) WHERE resolved_at IS NULL",
            "CREATE INDEX reports_by_time ON reports (created_at)",
            """
            CREATE TABLE audit_log (
                id \(f.generatedKey),
                at BIGINT NOT NULL,
                actor_key \(f.text),
                actor_email \(f.text) NOT NULL,
                action \(f.text) NOT NULL,
                target \(f.text) NOT NULL,
                detail \(f.text) NOT NULL
            )
            """,
            """
            CREATE TABLE password_resets (
                token_hash \(f.text) PRIMARY KEY,
                account_key \(f.text) NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
        ] + f.visiblePinCountTriggers
    }
}
