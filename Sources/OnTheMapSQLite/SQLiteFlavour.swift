import OnTheMapStore
import SQLKit

/// SQLite's pieces of the store's SQL. Its one writer commits every write in turn, in the order
/// the events were numbered, and numbers keys after the highest by itself (AUTOINCREMENT), so most
/// of what PostgreSQL needs here it needs nothing for.
struct SQLiteFlavour: SQLFlavour {
    var byteOrderCollation: String { "" }
    var generatedKey: String { "INTEGER PRIMARY KEY AUTOINCREMENT" }

    /// Its writer batches many writes into one transaction anyway, the events with them.
    var writesEventsInStatements: Bool { false }
    func takingTurns(over key: any SQLExpression) -> [any SQLExpression] { [] }

    var eventIsFinal: SQLRaw { SQLRaw("TRUE") }

    var keepingGivenKeys: String { "" }
    func continuingNumbering(of table: String) -> (any SQLExpression)? { nil }

    // The schema's own steps, each kept as it shipped (`ShippedMigrationsTests`).

    var rowCountTriggers: [String] {
        [
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
        ]
    }

    var visiblePinCountTriggers: [String] {
        [
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

    var eventIDsByTransaction: [String] { [] }
    /// Its count's row is updated in place, so a statement of n pins costs n updates, not n².
    var pinCountPerStatement: [String] { [] }
    var wireTimeFunctions: [String] { [] }

    /// SQLite cannot drop a column's UNIQUE: the table is made again with the course, its rows
    /// copied in the same transaction (its indexes and triggers go with the old one).
    var pinsInCourses: [String] {
        let columns = "object_id, owner_key, unique_key, first_name, last_name, map_string, media_url, latitude, longitude, created_at, updated_at, hidden_at"
        return [
            """
            CREATE TABLE student_locations_in_courses (
                object_id TEXT PRIMARY KEY,
                owner_key TEXT REFERENCES accounts(key) ON DELETE CASCADE,
                unique_key TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                map_string TEXT NOT NULL,
                media_url TEXT NOT NULL,
                latitude DOUBLE PRECISION NOT NULL,
                longitude DOUBLE PRECISION NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                hidden_at BIGINT,
                course_id BIGINT NOT NULL DEFAULT 1 REFERENCES courses(id)
            )
            """,
            "INSERT INTO student_locations_in_courses (\(columns), course_id) SELECT \(columns), 1 FROM student_locations",
            "DROP TABLE student_locations",
            "ALTER TABLE student_locations_in_courses RENAME TO student_locations",
        ]
    }

    var pinCountsPerCourse: [String] {
        func count(_ delta: String, in course: String) -> String {
            """
            INSERT INTO course_pin_counts (course_id, visible_pins) VALUES (\(course).course_id, \(delta))
                    ON CONFLICT (course_id) DO UPDATE SET visible_pins = visible_pins + excluded.visible_pins;
            """
        }
        return [
            """
            CREATE TRIGGER student_locations_count_insert AFTER INSERT ON student_locations WHEN NEW.hidden_at IS NULL BEGIN
                \(count("1", in: "NEW"))
            END
            """,
            """
            CREATE TRIGGER student_locations_count_delete AFTER DELETE ON student_locations WHEN OLD.hidden_at IS NULL BEGIN
                \(count("-1", in: "OLD"))
            END
            """,
            """
            CREATE TRIGGER student_locations_count_hide AFTER UPDATE OF hidden_at ON student_locations
            WHEN OLD.hidden_at IS NULL AND NEW.hidden_at IS NOT NULL BEGIN
                \(count("-1", in: "NEW"))
            END
            """,
            """
            CREATE TRIGGER student_locations_count_show AFTER UPDATE OF hidden_at ON student_locations
            WHEN OLD.hidden_at IS NOT NULL AND NEW.hidden_at IS NULL BEGIN
                \(count("1", in: "NEW"))
            END
            """,
        ]
    }
}
