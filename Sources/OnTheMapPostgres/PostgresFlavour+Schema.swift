import OnTheMapStore

/// PostgreSQL's own steps of the schema's migrations, in its trigger and function syntax. Each is
/// a shipped step, kept as it shipped even where two repeat a few lines (`ShippedMigrationsTests`).
extension PostgresFlavour {
    var rowCountTriggers: [String] {
        [
            """
            CREATE FUNCTION student_locations_count() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE row_counts SET row_count = row_count + (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)
                WHERE table_name = 'student_locations';
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER student_locations_count AFTER INSERT OR DELETE ON student_locations
            FOR EACH ROW EXECUTE FUNCTION student_locations_count()
            """,
        ]
    }

    var visiblePinCountTriggers: [String] {
        [
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
    }

    var eventIDsByTransaction: [String] {
        [
            "ALTER TABLE location_events ALTER COLUMN id DROP IDENTITY IF EXISTS",
            "CREATE SEQUENCE location_events_ordinal MINVALUE 0 MAXVALUE \(TransactionOrderedIDs.perTransaction - 1) START 0 CYCLE",
            """
            ALTER TABLE location_events ALTER COLUMN id SET DEFAULT
                (pg_current_xact_id()::text::bigint << \(TransactionOrderedIDs.shift)) + nextval('location_events_ordinal')
            """,
        ]
    }

    var pinCountPerStatement: [String] {
        [
            "DROP TRIGGER student_locations_count ON student_locations",
            """
            CREATE FUNCTION student_locations_count_statement() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE delta BIGINT;
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    SELECT COUNT(*) INTO delta FROM added WHERE hidden_at IS NULL;
                ELSE
                    SELECT -COUNT(*) INTO delta FROM removed WHERE hidden_at IS NULL;
                END IF;
                IF delta <> 0 THEN
                    UPDATE row_counts SET row_count = row_count + delta WHERE table_name = 'student_locations';
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER student_locations_count_insert AFTER INSERT ON student_locations
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION student_locations_count_statement()
            """,
            """
            CREATE TRIGGER student_locations_count_delete AFTER DELETE ON student_locations
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION student_locations_count_statement()
            """,
            """
            CREATE TRIGGER student_locations_count_hide AFTER UPDATE OF hidden_at ON student_locations
            FOR EACH ROW EXECUTE FUNCTION student_locations_count()
            """,
        ]
    }

    /// A column with a constant default is added without rewriting the table.
    var pinsInCourses: [String] {
        [
            "ALTER TABLE student_locations ADD COLUMN course_id BIGINT NOT NULL DEFAULT 1 REFERENCES courses(id)",
            "ALTER TABLE student_locations DROP CONSTRAINT student_locations_owner_key_key",
        ] + ["latest", "by_created", "by_last_name", "by_first_name", "by_unique_key", "hidden"].map { "DROP INDEX student_locations_\($0)" }
    }

    /// The same triggers as before (inserts and deletes per statement, hiding and showing per
    /// row), their functions counting per course.
    var pinCountsPerCourse: [String] {
        [
            """
            CREATE OR REPLACE FUNCTION student_locations_count() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE delta INTEGER := 0;
            BEGIN
                IF OLD.hidden_at IS NULL AND NEW.hidden_at IS NOT NULL THEN
                    delta := -1;
                ELSIF OLD.hidden_at IS NOT NULL AND NEW.hidden_at IS NULL THEN
                    delta := 1;
                END IF;
                IF delta <> 0 THEN
                    INSERT INTO course_pin_counts (course_id, visible_pins) VALUES (NEW.course_id, delta)
                    ON CONFLICT (course_id) DO UPDATE SET visible_pins = course_pin_counts.visible_pins + excluded.visible_pins;
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION student_locations_count_statement() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO course_pin_counts (course_id, visible_pins)
                    SELECT course_id, COUNT(*) FROM added WHERE hidden_at IS NULL GROUP BY course_id
                    ON CONFLICT (course_id) DO UPDATE SET visible_pins = course_pin_counts.visible_pins + excluded.visible_pins;
                ELSE
                    INSERT INTO course_pin_counts (course_id, visible_pins)
                    SELECT course_id, -COUNT(*) FROM removed WHERE hidden_at IS NULL GROUP BY course_id
                    ON CONFLICT (course_id) DO UPDATE SET visible_pins = course_pin_counts.visible_pins + excluded.visible_pins;
                END IF;
                RETURN NULL;
            END $$
            """,
        ]
    }

    var wireTimeFunctions: [String] {
        [
            """
            CREATE FUNCTION wire_pad(value BIGINT, width INTEGER) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT CASE WHEN value >= 0 AND length(value::text) <= width THEN lpad(value::text, width, '0')
                            WHEN length(value::text) >= width THEN value::text
                            ELSE repeat('0', width - length(value::text)) || value::text END
            $$
            """,
            """
            CREATE FUNCTION wire_time(millis BIGINT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
            DECLARE
                fraction BIGINT := ((millis % 1000) + 1000) % 1000;
                seconds BIGINT := (millis - fraction) / 1000;
                second_of_day BIGINT := ((seconds % 86400) + 86400) % 86400;
                z BIGINT := (seconds - second_of_day) / 86400 + 719468;
                era BIGINT := (z - (((z % 146097) + 146097) % 146097)) / 146097;
                day_of_era BIGINT := z - era * 146097;
                year_of_era BIGINT := (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
                day_of_year BIGINT := day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
                mp BIGINT := (5 * day_of_year + 2) / 153;
                day_of_month BIGINT := day_of_year - (153 * mp + 2) / 5 + 1;
                month_of_year BIGINT := CASE WHEN mp < 10 THEN mp + 3 ELSE mp - 9 END;
                civil_year BIGINT := year_of_era + era * 400 + CASE WHEN month_of_year <= 2 THEN 1 ELSE 0 END;
            BEGIN
                RETURN wire_pad(civil_year, 4) || '-' || wire_pad(month_of_year, 2) || '-' || wire_pad(day_of_month, 2)
                    || 'T' || wire_pad(second_of_day / 3600, 2) || ':' || wire_pad(second_of_day / 60 % 60, 2)
                    || ':' || wire_pad(second_of_day % 60, 2) || '.' || wire_pad(fraction, 3) || 'Z';
            END $$
            """,
        ]
    }
}
