import OnTheMapModel
import SQLKit

/// A location change as stored for the live map. Ids only ever appear in increasing order to a
/// reader of "every event after N", so a tailing reader never skips one that commits later: on
/// SQLite, whose one writer commits in turn, ids are drawn in commit order; on PostgreSQL, whose
/// writers commit together, see `TransactionOrderedIDs`.
public struct LocationEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case created, updated, deleted
        /// A new epoch: the data was rewritten, the events before are gone; readers reload.
        case reload
    }

    public let id: Int64
    public let kind: Kind
    /// The course of the pin; a `reload` is every course's.
    public let course: CourseID
    public let objectId: String
    /// The location's JSON as the list shows it; nil for a deletion.
    public let payload: String?
    /// Milliseconds.
    public let at: Int64

    public init(id: Int64, kind: Kind, course: CourseID = .default, objectId: String, payload: String?, at: Int64) {
        self.id = id
        self.kind = kind
        self.course = course
        self.objectId = objectId
        self.payload = payload
        self.at = at
    }
}

/// How writers record the changes of a write, inside its transaction.
public enum LocationEventLog {
    /// The statements that record `changes` (none for `.unknown` or `.interrupted`, which no writer produces). On
    /// SQLite the database numbers them; PostgreSQL writers pass `TransactionOrderedIDs.id(ordinal:)`.
    /// `.rewritten` starts an epoch: the events before it are deleted (they describe data that is
    /// gone), a `reload` event takes their place, and the pruning mark rises to it, so that a
    /// stream resuming from any earlier id reloads too.
    public static func statements(
        for changes: [LocationChange.Kind], at now: Int64, id: ((Int) -> any SQLExpression)? = nil
    ) -> [any SQLExpression] {
        changes.filter { $0.isRecorded }.enumerated().flatMap { ordinal, change -> [any SQLExpression] in
            let (kind, objectId, payload): (LocationEvent.Kind, String, String?)
            switch change {
            case .created(let location, _): (kind, objectId, payload) = (.created, location.objectId, LocationJSON.object(location))
            case .updated(let location, _): (kind, objectId, payload) = (.updated, location.objectId, LocationJSON.object(location))
            case .deleted(let id, _): (kind, objectId, payload) = (.deleted, id, nil)
            case .rewritten: (kind, objectId, payload) = (.reload, "", nil)
            case .unknown, .elsewhere, .interrupted: return []
            }
            let course = change.course ?? .default
            // Without an id expression the column is left out, and the database numbers the event.
            let (idColumn, idValue) = id.map { (SQLRaw("id, "), SQLList([$0(ordinal), SQLRaw(", ")], separator: SQLRaw(""))) }
                ?? (SQLRaw(""), SQLList([]))
            let insert = SQLQueryString("""
                INSERT INTO location_events (\(idColumn)kind, object_id, payload, at, course_id)
                VALUES (\(idValue)\(bind: kind.rawValue), \(bind: objectId), \(bind: payload), \(bind: now), \(bind: course.rawValue))
                """)
            // A pin's earlier events go: the newest says all a replaying stream needs, and an older
            // one may hold what the student or a moderator took down since (a hidden or deleted
            // pin, an exact address now shown as the town only).
            guard kind == .reload else { return [LocationEventLog.forgetting(objectId: objectId), insert] }
            return [
                SQLQueryString("DELETE FROM location_events"),
                insert,
                SQLQueryString("UPDATE location_event_log SET pruned_through = (SELECT MAX(id) FROM location_events)"),
            ]
        }
    }
}

extension LocationEventLog {
    /// Deletes every event of `objectId` recorded so far, before its newest is recorded.
    static func forgetting(objectId: String) -> any SQLExpression {
        SQLQueryString("DELETE FROM location_events WHERE object_id = \(bind: objectId) AND kind <> 'reload'")
    }

    /// The condition on an event row that no later event of the same pin exists: a replay reads
    /// only those, so that it gives each pin's state as it is now even where a write's own
    /// forgetting missed an event (on PostgreSQL, one committed while that write's statement waited
    /// for the pin's row, which its snapshot predates).
    static let isNewestOfItsPin = SQLRaw("""
        NOT EXISTS (SELECT 1 FROM location_events later WHERE later.object_id = location_events.object_id AND later.id > location_events.id)
        """)
}

extension LocationChange.Kind {
    /// Whether the change is a row of the event log (`.unknown` and `.interrupted` are news about
    /// other processes, not changes this one makes).
    var isRecorded: Bool {
        switch self {
        case .created, .updated, .deleted, .rewritten: true
        case .unknown, .elsewhere, .interrupted: false
        }
    }
}

/// PostgreSQL's event ids: the writing transaction's id (`xid8`) shifted left by 20 bits, plus the
/// event's place within the transaction. Writers then need no lock to commit together (an advisory
/// lock held through COMMIT made every location write commit alone), and a reader keeps the rule
/// that ids appear in increasing order by reading only below the horizon: every transaction older
/// than the oldest one still running (`pg_snapshot_xmin`) has ended, and any that commits later
/// has a larger transaction id, so it can only add ids above the horizon.
///
/// An id stays below 2^53 (exact in JavaScript) for the first 2^32 transactions of a cluster.
public enum TransactionOrderedIDs {
    public static let shift = 20
    /// How many events one transaction can record.
    public static let perTransaction = 1 << shift

    /// The id of a write's `ordinal`th event, computed by the database inside the transaction.
    public static func id(ordinal: Int) -> any SQLExpression {
        SQLQueryString("(pg_current_xact_id()::text::bigint << \(unsafeRaw: "\(shift)")) + \(bind: ordinal)")
    }

    /// The lowest id a transaction still running could write: only ids below it are final.
    public static let horizon = SQLRaw("(pg_snapshot_xmin(pg_current_snapshot())::text::bigint << \(shift))")
}

/// What one read of the event log found.
public struct LocationEventBatch: Sendable, Equatable {
    /// Events after the id asked for, oldest first.
    public let events: [LocationEvent]
    /// Some later events have committed but are not final yet (PostgreSQL: an older transaction
    /// is still running, which may still add events before them): read again shortly.
    public let heldBack: Bool

    public init(events: [LocationEvent], heldBack: Bool) {
        self.events = events
        self.heldBack = heldBack
    }
}

/// Reading the event log.
public protocol LocationEventStore: Sendable {
    /// Final events with an id above `id`, oldest first, at most `limit`: of every course, or of
    /// `course` (and every course's `reload`).
    func locationEventBatch(after id: Int64, limit: Int, in course: CourseID?) async throws -> LocationEventBatch
    /// The first and last final ids still kept (nil when none was ever written).
    func locationEventRange() async throws -> ClosedRange<Int64>?
    /// The highest id pruning may have deleted: a reader at or above it has missed none.
    func locationEventsPrunedThrough() async throws -> Int64
    /// Drops events from before `cutoff` (milliseconds), always keeping the newest one (its id is
    /// where a new stream starts); returns how many.
    func deleteLocationEvents(before cutoff: Int64) async throws -> Int
}

extension LocationEventStore {
    /// Final events of `course` (nil: of every course) with an id above `id`, oldest first, at most `limit`.
    public func locationEvents(after id: Int64, limit: Int, in course: CourseID? = nil) async throws -> [LocationEvent] {
        try await locationEventBatch(after: id, limit: limit, in: course).events
    }
}

extension SQLStore: LocationEventStore {
    public func locationEventBatch(after id: Int64, limit: Int, in course: CourseID?) async throws -> LocationEventBatch {
        // Final ids come first in id order, so the rows up to the first that is not final are the
        // answer, and that one says whether anything is held back.
        let inCourse: SQLQueryString = course.map { "AND (course_id = \(bind: $0.rawValue) OR kind = 'reload')" } ?? ""
        let rows = try await reader.raw("""
            SELECT id, kind, object_id, payload, at, course_id, \(flavour.eventIsFinal) AS final FROM location_events
            WHERE id > \(bind: id) \(inCourse) AND \(LocationEventLog.isNewestOfItsPin) ORDER BY id LIMIT \(bind: limit)
            """).all()
        var events: [LocationEvent] = []
        for row in rows {
            guard try row.decode(column: "final", as: Bool.self) else { return LocationEventBatch(events: events, heldBack: true) }
            events.append(LocationEvent(
                id: try row.decode(column: "id", as: Int64.self),
                kind: LocationEvent.Kind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .updated,
                course: CourseID(rawValue: try row.decode(column: "course_id", as: Int64.self)),
                objectId: try row.decode(column: "object_id", as: String.self),
                payload: try row.decodeNil(column: "payload") ? nil : try row.decode(column: "payload", as: String.self),
                at: try row.decode(column: "at", as: Int64.self)))
        }
        return LocationEventBatch(events: events, heldBack: false)
    }

    public func locationEventRange() async throws -> ClosedRange<Int64>? {
        guard let row = try await reader.raw("SELECT MIN(id) AS first, MAX(id) AS last FROM location_events WHERE \(flavour.eventIsFinal)").first(),
              let first = try row.decode(column: "first", as: Int64?.self), let last = try row.decode(column: "last", as: Int64?.self)
        else { return nil }
        return first...last
    }

    public func locationEventsPrunedThrough() async throws -> Int64 {
        try await reader.raw("SELECT pruned_through FROM location_event_log").first()?.decode(column: "pruned_through", as: Int64.self) ?? 0
    }

    /// Starts a new epoch of the log after the data was rewritten under it (restore, copy-data,
    /// import): every stream, live or resuming from any earlier id, is told to reload.
    public func startLocationEventEpoch() async throws {
        try await writer.perform(WriteUnit([]) { _ in ((), [.rewritten]) })
        // The accounts and sessions may have been rewritten too.
        await sessionsChanged(of: nil)
    }

    /// Raises the pruning mark first, then deletes only up to it, in one transaction: events that
    /// commit in between are above the mark and stay. Also deletes any event a later one of its pin
    /// has superseded that the later write's own forgetting missed (see `isNewestOfItsPin`).
    public func deleteLocationEvents(before cutoff: Int64) async throws -> Int {
        try await writer.perform(WriteUnit([
            SQLQueryString("""
                UPDATE location_event_log SET pruned_through = COALESCE((
                    SELECT MAX(id) FROM location_events
                    WHERE at < \(bind: cutoff) AND id > pruned_through AND id < (SELECT MAX(id) FROM location_events)
                ), pruned_through)
                """),
            SQLQueryString("""
                DELETE FROM location_events WHERE at < \(bind: cutoff) AND id <= (SELECT pruned_through FROM location_event_log) RETURNING id
                """),
            SQLQueryString("DELETE FROM location_events WHERE kind <> 'reload' AND NOT \(LocationEventLog.isNewestOfItsPin) RETURNING id"),
        ]) { rows in (rows[1].count + rows[2].count, []) })
    }
}

/// An event row whose kind this version does not know (written by a newer one).
struct UnknownLocationEventKind: Error, CustomStringConvertible {
    let kind: String
    var description: String { "unknown location event kind \(kind)" }
}
