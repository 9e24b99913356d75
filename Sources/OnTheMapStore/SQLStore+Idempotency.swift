import SQLKit

extension SQLStore: IdempotencyStore {
    public func claimIdempotencyKey(
        _ key: String, fingerprint: String, by claimant: IdempotencyClaimant, bounds: IdempotencyBounds, now: Int64
    ) async throws -> IdempotencyClaim {
        // Twice at most: a key released between the INSERT and the SELECT is free to claim again.
        // Found neither time, it was the bounds that kept it out.
        for _ in 0..<2 {
            let inserted = try await writer.run(SQLQueryString("""
                INSERT INTO idempotency_keys (key, fingerprint, created_at, caller, address)
                SELECT \(bind: key), \(bind: fingerprint), \(bind: now), \(bind: claimant.caller), \(bind: claimant.address)
                WHERE \(Self.heldKeys("caller", claimant.caller, below: bounds.perCaller))
                AND \(Self.heldKeys("address", claimant.address, below: bounds.perAddress))
                ON CONFLICT (key) DO NOTHING RETURNING key
                """))
            if !inserted.isEmpty { return .claimed }
            // On the writer: the row the INSERT clashed with is there to read.
            guard let row = try await writer.run(SQLQueryString(
                "SELECT fingerprint, answer, created_at FROM idempotency_keys WHERE key = \(bind: key)")).first else { continue }
            let earlier = try row.decode(column: "fingerprint", as: String.self)
            if let answer = try row.decode(column: "answer", as: String?.self) {
                return .answered(fingerprint: earlier, answer: answer)
            }
            return .inProgress(fingerprint: earlier, since: try row.decode(column: "created_at", as: Int64.self))
        }
        return .overBound
    }

    /// Whether the keys held under `column` = `value` are fewer than `bound`, counting no further
    /// than the bound (an index walk of at most that many entries).
    private static func heldKeys(_ column: String, _ value: String?, below bound: Int) -> SQLQueryString {
        """
        (SELECT COUNT(*) FROM (SELECT 1 FROM idempotency_keys WHERE \(unsafeRaw: column) = \(bind: value) LIMIT \(bind: bound)) AS held) < \(bind: bound)
        """
    }

    public func completeIdempotencyKey(_ key: String, answer: String) async throws {
        try await writer.run(SQLQueryString("UPDATE idempotency_keys SET answer = \(bind: answer) WHERE key = \(bind: key)"))
    }

    public func releaseIdempotencyKey(_ key: String) async throws {
        try await writer.run(SQLQueryString("DELETE FROM idempotency_keys WHERE key = \(bind: key) AND answer IS NULL"))
    }

    public func deleteIdempotencyKeys(before cutoff: Int64) async throws -> Int {
        try await writer.run(SQLQueryString("DELETE FROM idempotency_keys WHERE created_at < \(bind: cutoff) RETURNING key")).count
    }

    public func idempotencyKeyCount() async throws -> Int {
        try await reader.raw("SELECT COUNT(*) AS count FROM idempotency_keys").first()?.decode(column: "count", as: Int.self) ?? 0
    }

    public func recordServerSecretDigest(_ digest: String, replacing: Bool, now: Int64) async throws -> ServerSecretRecord {
        if replacing {
            try await writer.perform(WriteUnit([
                SQLQueryString("DELETE FROM server_secret"),
                SQLQueryString("INSERT INTO server_secret (id, digest, recorded_at) VALUES (1, \(bind: digest), \(bind: now))"),
                SQLQueryString("DELETE FROM idempotency_keys"),
            ]) { _ in ((), []) })
            return .recorded
        }
        try await writer.run(SQLQueryString("""
            INSERT INTO server_secret (id, digest, recorded_at) VALUES (1, \(bind: digest), \(bind: now)) ON CONFLICT (id) DO NOTHING
            """))
        let recorded = try await writer.run(SQLQueryString("SELECT digest FROM server_secret WHERE id = 1")).first?
            .decode(column: "digest", as: String.self)
        return recorded == digest ? .recorded : .differs
    }
}
