import OnTheMapModel
import SQLKit

/// A location change as stored for the live map. Ids grow in commit order on both engines (SQLite
/// has one writer; PostgreSQL writers take an advisory lock just before they write events and hold
/// it to their commit, see `PostgresWriter`), so "every event after N" never skips one that
/// commits later.
public struct LocationEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case created, updated, deleted
    }

    public let id: Int64
    public let kind: Kind
    public let objectId: String
    /// The location's JSON as the list shows it; nil for a deletion.
    public let payload: String?
    /// Milliseconds.
    public let at: Int64

    public init(id: Int64, kind: Kind, objectId: String, payload: String?, at: Int64) {
        self.id = id
        self.kind = kind
        self.objectId = objectId
        self.payload = payload
        self.at = at
    }
}

/// How writers record the changes of a write, inside its transaction.
public enum LocationEventLog {
    /// The statements that record `changes` (none for `.unknown`, which no writer produces).
    public static func statements(for changes: [LocationChange.Kind], at now: Int64) -> [any SQLExpression] {
        changes.compactMap { change in
            let (kind, objectId, payload): (LocationEvent.Kind, String, String?)
            switch change {
            case .created(let location): (kind, objectId, payload) = (.created, location.objectId, LocationJSON.object(location))
            case .updated(let location): (kind, objectId, payload) = (.updated, location.objectId, LocationJSON.object(location))
            case .deleted(let id): (kind, objectId, payload) = (.deleted, id, nil)
            case .unknown: return nil
            }
            return SQLQueryString("""
                INSERT INTO location_events (kind, object_id, payload, at)
                VALUES (\(bind: kind.rawValue), \(bind: objectId), \(bind: payload), \(bind: now))
                """)
        }
    }
}

/// Reading the event log.
public protocol LocationEventStore: Sendable {
    /// Events with an id above `id`, oldest first, at most `limit`.
    func locationEvents(after id: Int64, limit: Int) async throws -> [LocationEvent]
    /// The first and last ids still kept (nil when none was ever written).
    func locationEventRange() async throws -> ClosedRange<Int64>?
    /// Drops events from before `cutoff` (milliseconds), always keeping the newest one (its id is
    /// where a new stream starts); returns how many.
    func deleteLocationEvents(before cutoff: Int64) async throws -> Int
}

extension SQLStore: LocationEventStore {
    public func locationEvents(after id: Int64, limit: Int) async throws -> [LocationEvent] {
        try await reader.raw("""
            SELECT id, kind, object_id, payload, at FROM location_events WHERE id > \(bind: id) ORDER BY id LIMIT \(bind: limit)
            """).all().map { row in
            LocationEvent(
                id: try row.decode(column: "id", as: Int64.self),
                kind: LocationEvent.Kind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .updated,
                objectId: try row.decode(column: "object_id", as: String.self),
                payload: try row.decodeNil(column: "payload") ? nil : try row.decode(column: "payload", as: String.self),
                at: try row.decode(column: "at", as: Int64.self))
        }
    }

    public func locationEventRange() async throws -> ClosedRange<Int64>? {
        guard let row = try await reader.raw("SELECT MIN(id) AS first, MAX(id) AS last FROM location_events").first(),
              let first = try row.decode(column: "first", as: Int64?.self), let last = try row.decode(column: "last", as: Int64?.self)
        else { return nil }
        return first...last
    }

    public func deleteLocationEvents(before cutoff: Int64) async throws -> Int {
        try await writer.run(SQLQueryString("""
            DELETE FROM location_events WHERE at < \(bind: cutoff) AND id < (SELECT MAX(id) FROM location_events) RETURNING id
            """)).count
    }
}

/// An event row whose kind this version does not know (written by a newer one).
struct UnknownLocationEventKind: Error, CustomStringConvertible {
    let kind: String
    var description: String { "unknown location event kind \(kind)" }
}
