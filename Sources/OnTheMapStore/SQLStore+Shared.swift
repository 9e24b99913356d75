import OnTheMapModel
import SQLKit

extension SQLStore: RateLimitStore {
    public func admitRateEvent(bucket: String, key: String, limit: Int, windowMillis: Int64, now: Int64) async throws -> RateAdmission {
        // Two instances counting the same key take turns, so neither counts past the limit.
        var statements: [any SQLExpression] = flavour.takingTurns(over: SQLBind(bucket + "\u{1}" + key))
        statements += [
            SQLQueryString("DELETE FROM rate_events WHERE bucket = \(bind: bucket) AND key = \(bind: key) AND at <= \(bind: now - windowMillis)"),
            SQLQueryString("""
                INSERT INTO rate_events (bucket, key, at)
                SELECT \(bind: bucket), \(bind: key), \(bind: now)
                WHERE (SELECT COUNT(*) FROM rate_events WHERE bucket = \(bind: bucket) AND key = \(bind: key)) < \(bind: limit)
                RETURNING id
                """),
            SQLQueryString("SELECT MIN(at) AS oldest FROM rate_events WHERE bucket = \(bind: bucket) AND key = \(bind: key)"),
        ]
        return try await writer.perform(WriteUnit(statements) { rows in
            let inserted = rows[rows.count - 2]
            if let row = inserted.first { return (.admitted(eventID: try row.decode(column: "id", as: Int64.self)), []) }
            let oldest = try rows[rows.count - 1].first?.decode(column: "oldest", as: Int64?.self) ?? now
            return (.refused(oldestAt: oldest), [])
        })
    }

    public func removeRateEvent(id: Int64) async throws {
        try await writer.run(SQLQueryString("DELETE FROM rate_events WHERE id = \(bind: id)"))
    }

    public func removeRateEvents(bucket: String, key: String) async throws {
        try await writer.run(SQLQueryString("DELETE FROM rate_events WHERE bucket = \(bind: bucket) AND key = \(bind: key)"))
    }

    public func deleteRateEvents(before cutoff: Int64) async throws -> Int {
        try await writer.run(SQLQueryString("DELETE FROM rate_events WHERE at < \(bind: cutoff) RETURNING id")).count
    }
}

extension SQLStore: LeaseStore {
    public func acquireLease(_ name: String, holder: String, now: Int64, until: Int64) async throws -> Bool {
        try await !writer.run(SQLQueryString("""
            INSERT INTO leases (name, holder, expires_at) VALUES (\(bind: name), \(bind: holder), \(bind: until))
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
            WHERE leases.expires_at <= \(bind: now) OR leases.holder = excluded.holder
            RETURNING holder
            """)).isEmpty
    }
}
