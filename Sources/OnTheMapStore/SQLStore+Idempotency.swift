import SQLKit

extension SQLStore: IdempotencyStore {
    public func claimIdempotencyKey(_ key: String, fingerprint: String, now: Int64) async throws -> IdempotencyClaim {
        // Twice at most: a key released between the INSERT and the SELECT is free to claim again.
        for _ in 0..<2 {
            let inserted = try await writer.run(SQLQueryString("""
                INSERT INTO idempotency_keys (key, fingerprint, created_at) VALUES (\(bind: key), \(bind: fingerprint), \(bind: now))
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
        throw StoreError.busy
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
}
