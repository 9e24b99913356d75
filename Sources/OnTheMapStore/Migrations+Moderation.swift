/// Migration 5: what admins need to run a course. A hidden pin keeps its row (so its
/// owner still has exactly one, and posting again updates it, still hidden) and is left out of
/// every public read; the kept row count counts visible pins only.
enum Moderation {
    static func schema(_ d: SchemaDialect) -> [String] {
        [
            "ALTER TABLE accounts ADD COLUMN disabled_at BIGINT",
            "ALTER TABLE accounts ADD COLUMN last_login_at BIGINT",
            "ALTER TABLE student_locations ADD COLUMN hidden_at BIGINT",
            "CREATE INDEX student_locations_hidden ON student_locations (hidden_at) WHERE hidden_at IS NOT NULL",
            """
            CREATE TABLE reports (
                id \(d.generatedKey),
                object_id \(d.text) NOT NULL,
                reporter_key \(d.text) NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
                reason \(d.text) NOT NULL,
                created_at BIGINT NOT NULL,
                resolved_at BIGINT,
                resolved_by \(d.text),
                resolution \(d.text)
            )
            """,
            // A student reports a pin once until an admin has looked at it.
            "CREATE UNIQUE INDEX reports_open_once ON reports (object_id, reporter_key) WHERE resolved_at IS NULL",
            "CREATE INDEX reports_by_time ON reports (created_at)",
            """
            CREATE TABLE audit_log (
                id \(d.generatedKey),
                at BIGINT NOT NULL,
                actor_key \(d.text),
                actor_email \(d.text) NOT NULL,
                action \(d.text) NOT NULL,
                target \(d.text) NOT NULL,
                detail \(d.text) NOT NULL
            )
            """,
            """
            CREATE TABLE password_resets (
                token_hash \(d.text) PRIMARY KEY,
                account_key \(d.text) NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
        ] + (d.isPostgres ? postgresCount : sqliteCount)
    }

    /// The kept count of `student_locations` follows visible pins: inserted or deleted while
    /// visible, hidden, shown again.
    private static let postgresCount = [
        "DROP TRIGGER student_locations_count ON student_locations",
        """
        CREATE OR REPLACE FUNCTION student_locations_count() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE delta INTEGER := 0;
        BEGIN
            IF TG_OP = 'INSERT' THEN
                IF NEW.hidden_at IS NULL THEN delta := 1; END IF;
            ELSIF TG_OP = 'DELETE' THEN
                IF OLD.hidden_at IS NULL THEN delta := -1; END IF;
            ELSIF OLD.hidden_at IS NULL AND NEW.hidden_at IS NOT NULL THEN
                delta := -1;
            ELSIF OLD.hidden_at IS NOT NULL AND NEW.hidden_at IS NULL THEN
                delta := 1;
            END IF;
            IF delta <> 0 THEN
                UPDATE row_counts SET row_count = row_count + delta WHERE table_name = 'student_locations';
            END IF;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER student_locations_count AFTER INSERT OR DELETE OR UPDATE OF hidden_at ON student_locations
        FOR EACH ROW EXECUTE FUNCTION student_locations_count()
        """,
    ]

    private static let sqliteCount = [
        "DROP TRIGGER student_locations_count_insert",
        "DROP TRIGGER student_locations_count_delete",
        """
        CREATE TRIGGER student_locations_count_insert AFTER INSERT ON student_locations WHEN NEW.hidden_at IS NULL BEGIN
            UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'student_locations';
        END
        """,
        """
        CREATE TRIGGER student_locations_count_delete AFTER DELETE ON student_locations WHEN OLD.hidden_at IS NULL BEGIN
            UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'student_locations';
        END
        """,
        """
        CREATE TRIGGER student_locations_count_hide AFTER UPDATE OF hidden_at ON student_locations
        WHEN OLD.hidden_at IS NULL AND NEW.hidden_at IS NOT NULL BEGIN
            UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'student_locations';
        END
        """,
        """
        CREATE TRIGGER student_locations_count_show AFTER UPDATE OF hidden_at ON student_locations
        WHEN OLD.hidden_at IS NOT NULL AND NEW.hidden_at IS NULL BEGIN
            UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'student_locations';
        END
        """,
    ]
}
