import OnTheMapModel
import SQLKit

/// The SQL of a write held for approval (migration 17): a student's pin in a course whose
/// instructors approve pins first. It waits hidden (`hidden_at`, so that every public read leaves
/// it out as it leaves out a hidden pin) and `awaiting_approval`. A pin that was showing starts
/// waiting again, since what an instructor approved is not what it now says; one a moderator hid
/// (or its account's disabling did) stays as it was, hidden and not waiting.
enum ApprovalHold {
    /// The values of `hidden_at, awaiting_approval` in a new pin's INSERT, after its others.
    static func newPin(at now: Int64) -> SQLQueryString {
        ", \(bind: now), TRUE"
    }

    /// The assignments an overwrite adds after its others. Every right-hand side reads the row as
    /// it was before the statement, on both engines.
    static func assignments(at now: Int64) -> SQLQueryString {
        """
        , hidden_at = CASE WHEN \(unsafeRaw: wasShowingOrWaiting) THEN \(bind: now) ELSE student_locations.hidden_at END, \
        awaiting_approval = CASE WHEN \(unsafeRaw: wasShowingOrWaiting) THEN TRUE ELSE FALSE END
        """
    }

    private static let wasShowingOrWaiting = "student_locations.hidden_at IS NULL OR student_locations.awaiting_approval"

    /// What the owner's pin in `course` was before the write: whether it showed (and so must be
    /// announced gone). No row when there was none.
    static func pinBefore(owner: String, in course: CourseID) -> SQLQueryString {
        "SELECT object_id, hidden_at FROM student_locations WHERE course_id = \(bind: course.rawValue) AND owner_key = \(bind: owner)"
    }

    /// The pin `objectId` of `course` before the write, and whether `right` reaches it
    /// (`permitted`, as `SQLStore.checking` reads it).
    static func pinBefore(objectId: String, in course: CourseID, by right: LocationWriteRight) -> SQLQueryString {
        """
        SELECT object_id, hidden_at, COALESCE(\(right.condition), FALSE) AS permitted FROM student_locations
        WHERE object_id = \(bind: objectId) AND course_id = \(bind: course.rawValue)
        """
    }
}

extension SQLStore {
    /// A held write: `write` (returning `locationColumnsAndHidden`) after reading the pin `before`
    /// it, in one transaction in which no other held write of the course's pins runs (so the pin
    /// read is the one written over). A pin that showed before is announced deleted; a waiting pin
    /// is announced to no one. The events come from here, never from the statement
    /// (`LocationWriteSQL` announces a write only when the pin shows after it). `answer` is given
    /// what was written and the row read before (nil: no pin).
    func heldWrite<Result: Sendable>(
        _ write: some SQLExpression, before: SQLQueryString, in course: CourseID,
        answer: @escaping @Sendable (OwnedLocation?, (any SQLRow)?) throws -> Result
    ) -> WriteUnit<Result> {
        let turns = flavour.takingTurns(over: SQLRaw("'onthemap-held-pins:\(course.rawValue):' || current_schema()"))
        return WriteUnit(turns + [before, write]) { rows in
            let written = try rows[turns.count + 1].first.map(Self.owned(from:))
            let before = rows[turns.count].first
            let showedBefore = try before.map { try $0.decodeNil(column: "hidden_at") } ?? false
            guard let written, showedBefore, written.isHidden else { return (try answer(written, before), []) }
            return (try answer(written, before), [.deleted(objectId: written.location.objectId, in: course)])
        }
    }

    public func locationsAwaitingApproval(in course: CourseID?, limit: Int, skip: Int) async throws -> [OwnedLocation] {
        let inCourse: SQLQueryString = course.map { "AND course_id = \(bind: $0.rawValue)" } ?? ""
        return try await reader.raw("""
            SELECT \(unsafeRaw: Self.locationColumnsAndHidden) FROM student_locations WHERE awaiting_approval \(inCourse)
            ORDER BY updated_at DESC, object_id LIMIT \(bind: limit) OFFSET \(bind: skip)
            """).all().map(Self.owned(from:))
    }
}
