import OnTheMapModel
import SQLKit

/// PostgreSQL: a pin written and its event recorded in one statement. On its own a location write
/// is four round trips on the writer's connection (BEGIN, the write, the event, COMMIT), and each
/// costs the server and the database more than the write itself; as one statement (a
/// data-modifying `WITH`) it is atomic without a transaction block, so it is one round trip (and
/// one more that confirms the commit, see `PostgresWriter`) and PostgreSQL still commits it
/// durably and groups its commit with others'. SQLite keeps the usual
/// road: its writer batches many writes into one transaction anyway.
///
/// The event's JSON must be exactly what `LocationEventLog` would record. Everything in it is
/// known before the statement runs except what an overwrite keeps from the pin it replaces, its
/// objectId and createdAt: those two the database fills in, the objectId through `to_json` (which
/// escapes as `LocationJSON` does) and the createdAt through `wire_time` (migration 11, which
/// formats as `WireTime` does). `EventsInTheWriteTests` holds both to the Swift writers.
enum LocationWriteSQL {
    /// `write` (an INSERT or UPDATE … RETURNING `locationColumnsAndHidden` that leaves the pin
    /// with `location`'s fields but for its objectId and createdAt), recording `created` when the
    /// pin has `newObjectId` (an upsert that inserted) and `updated` otherwise, unless the pin is
    /// hidden. Returns `write`'s rows.
    static func saving(_ write: any SQLExpression, newObjectId: String?, as location: StudentLocation, at now: Int64) -> any SQLExpression {
        let (beforeCreatedAt, beforeObjectId, afterObjectId) = LocationJSON.objectAround(createdAtAndObjectIdOf: location)
        let kind = newObjectId.map { SQLQueryString("CASE WHEN object_id = \(bind: $0) THEN 'created' ELSE 'updated' END") }
            ?? SQLQueryString("'updated'")
        let payload = SQLQueryString(
            "\(bind: beforeCreatedAt) || wire_time(created_at) || \(bind: beforeObjectId) || to_json(object_id)::text || \(bind: afterObjectId)")
        return recording(write, kind: kind, payload: payload, where: SQLRaw("hidden_at IS NULL"), at: now)
    }

    /// `delete` (a DELETE … RETURNING object_id), recording `deleted` for the pin it removed.
    /// Returns `delete`'s rows.
    static func deleting(_ delete: any SQLExpression, at now: Int64) -> any SQLExpression {
        recording(delete, kind: SQLRaw("'deleted'"), payload: SQLRaw("NULL"), where: SQLRaw("TRUE"), at: now)
    }

    /// `write` as a data-modifying `WITH` that also inserts, for each row it returns that meets
    /// `condition`, the event `kind` with `payload` (both read from that row), and deletes that
    /// pin's earlier events (`LocationEventLog.forgetting`); returns `write`'s rows. Every part of
    /// the statement sees the snapshot it started with, so the new event is not among those deleted.
    private static func recording(
        _ write: any SQLExpression, kind: any SQLExpression, payload: any SQLExpression, where condition: any SQLExpression, at now: Int64
    ) -> any SQLExpression {
        SQLQueryString("""
            WITH written AS (\(write)),
            recorded AS (
                INSERT INTO location_events (id, kind, object_id, payload, at, course_id)
                SELECT \(TransactionOrderedIDs.id(ordinal: 0)), \(kind), object_id, \(payload), \(bind: now), course_id
                FROM written WHERE \(condition)
            ),
            forgotten AS (
                DELETE FROM location_events WHERE kind <> 'reload' AND object_id IN (SELECT object_id FROM written WHERE \(condition))
            )
            SELECT * FROM written
            """)
    }
}
