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
}
