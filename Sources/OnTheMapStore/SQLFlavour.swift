import SQLKit

/// What differs between the engines' SQL, each piece named by what it means. Each engine module
/// implements it once and hands it to its `SQLStore`; the store and its migrations ask it for the
/// piece they need, never which engine they run on. Only what actually differs is here: both
/// engines take the same upserts (`ON CONFLICT … DO UPDATE`), `RETURNING` and row values.
public protocol SQLFlavour: Sendable {
    // MARK: Types

    /// Appended to a text column's type, or to a text key in a query, so that text compares and
    /// orders byte by byte, as SQLite does by itself: both engines then list in the same order
    /// whatever locale the PostgreSQL cluster was created with.
    var byteOrderCollation: String { get }
    /// The type of a key the database numbers itself, in order, never reusing a number.
    var generatedKey: String { get }

    // MARK: Writes

    /// Whether a location write records its event in its own statement (`LocationWriteSQL`,
    /// `WriteUnit.recordsItsEvents`) rather than the writer adding the event to its transaction.
    var writesEventsInStatements: Bool { get }
    /// What a write runs first so that writes naming the same `key` take turns until they commit;
    /// nothing where the engine runs every write in turn already.
    func takingTurns(over key: any SQLExpression) -> [any SQLExpression]

    // MARK: The location event log

    /// The condition on a `location_events` row that its id is final: no write still running can
    /// record an event with a lower id, so a reader of "every event after N" never skips one.
    var eventIsFinal: SQLRaw { get }

    // MARK: Copying data in

    /// Written after an INSERT's column list so that a generated key keeps the number given.
    var keepingGivenKeys: String { get }
    /// Run after rows were inserted with their numbers into `table`, whose generated key is `id`,
    /// so that the next number follows the highest; nil where the database does so by itself.
    func continuingNumbering(of table: String) -> (any SQLExpression)?

    // MARK: Schema steps that differ (see `Schema.migrations`; a shipped step never changes)

    /// Migration 2: triggers that keep `row_counts`' count of `student_locations` on insert and delete.
    var rowCountTriggers: [String] { get }
    /// Migration 5: the kept count follows visible pins (inserted or deleted while visible,
    /// hidden, shown again), replacing the triggers of migration 2.
    var visiblePinCountTriggers: [String] { get }
    /// Migration 8: location event ids drawn from the writing transaction (`TransactionOrderedIDs`)
    /// where writers commit together; none where one writer commits in turn.
    var eventIDsByTransaction: [String] { get }
    /// Migration 10: inserts and deletes counted once per statement where counting row by row
    /// costs n² in a write of n pins; none where it does not.
    var pinCountPerStatement: [String] { get }
    /// Migration 11: the functions a location write that records its event in its own statement
    /// needs (`wire_time`, formatting as `WireTime` does); none where writes do not.
    var wireTimeFunctions: [String] { get }
    /// Migration 15: `student_locations` gains `course_id` (default 1, the default course) and
    /// loses the owner's unique key, its indexes and its count's triggers, which the migration
    /// makes again led by the course.
    var pinsInCourses: [String] { get }
    /// Migration 15: the count of visible pins kept per course in `course_pin_counts` (inserted,
    /// deleted, hidden, shown), a course's row made by its first pin.
    var pinCountsPerCourse: [String] { get }
}

extension SQLFlavour {
    /// A text column compared and ordered byte by byte.
    var text: String { "TEXT" + byteOrderCollation }
}
