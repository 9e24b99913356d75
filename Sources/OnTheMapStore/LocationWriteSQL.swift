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

    /// `update` (an UPDATE … RETURNING `locationColumnsAndHidden` that sets the coordinates to
    /// `latitude` and `longitude` and the updatedAt to `now`, whatever else it sets or keeps),
    /// recording `updated` unless the pin is hidden. The event's JSON is written by the database from
    /// the row the update returns (`rowJSON`), so the update may keep fields the caller does not
    /// know (an owned pin's names). Returns one row: `update`'s, or NULLs when it changed nothing,
    /// followed by `checked`'s columns (see `checking`).
    static func updating(
        _ update: any SQLExpression, latitude: Double, longitude: Double, at now: Int64, checked target: any SQLExpression
    ) -> any SQLExpression {
        recording(
            update, kind: SQLRaw("'updated'"), payload: rowJSON(latitude: latitude, longitude: longitude, updatedAt: now),
            where: SQLRaw("hidden_at IS NULL"), at: now, checked: target)
    }

    /// `delete` (a DELETE … RETURNING object_id, course_id), recording `deleted` for the pin it
    /// removed. Returns `delete`'s rows or, with `checked`, one row as `updating` does.
    static func deleting(_ delete: any SQLExpression, at now: Int64, checked target: (any SQLExpression)? = nil) -> any SQLExpression {
        recording(delete, kind: SQLRaw("'deleted'"), payload: SQLRaw("NULL"), where: SQLRaw("TRUE"), at: now, checked: target)
    }

    /// The pin's JSON as `LocationJSON.object` writes it, from the columns of the row being
    /// recorded: strings through `to_json` (which escapes as `LocationJSON` does), the createdAt
    /// through `wire_time`; the coordinates and the updatedAt, which the write set, as Swift writes them.
    static func rowJSON(latitude: Double, longitude: Double, updatedAt: Int64) -> SQLQueryString {
        let coordinates = #","latitude":"# + LocationJSON.number(latitude) + #","longitude":"# + LocationJSON.number(longitude) + #","mapString":"#
        return """
            '{"createdAt":"' || wire_time(created_at) || '","firstName":' || to_json(first_name)::text \
            || ',"lastName":' || to_json(last_name)::text || \(bind: coordinates) || to_json(map_string)::text \
            || ',"mediaURL":' || to_json(media_url)::text || ',"objectId":' || to_json(object_id)::text \
            || ',"uniqueKey":' || to_json(unique_key)::text || \(bind: #","updatedAt":""# + WireTime.formatMillis(updatedAt) + #""}"#)
            """
    }

    /// `write` as a data-modifying `WITH` that also inserts, for each row it returns that meets
    /// `condition`, the event `kind` with `payload` (both read from that row), and deletes that
    /// pin's earlier events (`LocationEventLog.forgetting`). Every part of the statement sees the
    /// snapshot it started with, so the new event is not among those deleted. Returns `write`'s
    /// rows; with `checked` (a SELECT of `found` and `permitted` for the pin the write aims at,
    /// `SQLStore.checking`), exactly one row: `write`'s columns (NULL when it wrote nothing), then
    /// whether the pin was there and whether the writer may change it (both true when it wrote), so
    /// that a write refused is told from a pin not there in the same round trip.
    private static func recording(
        _ write: any SQLExpression, kind: any SQLExpression, payload: any SQLExpression, where condition: any SQLExpression, at now: Int64,
        checked target: (any SQLExpression)? = nil
    ) -> any SQLExpression {
        // The check looks at the pin only when the write wrote nothing (a CASE runs only the branch
        // it takes): a write that wrote was permitted and found its pin, which is most writes, and
        // the second look cost them a quarter of the statement's rate (BENCHMARKS.md).
        let answer: SQLQueryString = target.map { target in
            """
            , target AS (\(target))
            SELECT written.*,
                CASE WHEN written.object_id IS NULL THEN EXISTS (SELECT 1 FROM target) ELSE TRUE END AS found,
                CASE WHEN written.object_id IS NULL THEN COALESCE((SELECT bool_or(permitted) FROM target), FALSE) ELSE TRUE END AS permitted
            FROM (SELECT 1) AS one LEFT JOIN written ON TRUE
            """
        } ?? "\nSELECT * FROM written"
        return SQLQueryString("""
            WITH written AS (\(write)),
            recorded AS (
                INSERT INTO location_events (id, kind, object_id, payload, at, course_id)
                SELECT \(TransactionOrderedIDs.id(ordinal: 0)), \(kind), object_id, \(payload), \(bind: now), course_id
                FROM written WHERE \(condition)
            ),
            forgotten AS (
                DELETE FROM location_events WHERE kind <> 'reload' AND object_id IN (SELECT object_id FROM written WHERE \(condition))
            )\(answer)
            """)
    }
}
