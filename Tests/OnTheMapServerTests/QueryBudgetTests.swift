import Foundation
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapTestSupport
@testable import OnTheMapStore
import SQLKit
import Testing

/// A read that runs past its time budget is stopped and answered 503 with `Retry-After`, in
/// the shape of the family that was called.
@Suite struct QueryBudgetTests {
    /// 50,000 pins written in statements of 1,000 (SQL both engines read alike), so that a query
    /// with no index to use takes tens of milliseconds: far past a 1 ms budget on any machine.
    /// Short transactions: on PostgreSQL a write transaction left open anywhere on the cluster
    /// holds back every live event (docs/API.md), and other suites' streams share this cluster.
    func seedMany(_ server: TestServer) async throws {
        for chunk in 0..<50 {
            try await server.store.writer.run(SQLQueryString("""
                INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string, media_url,
                                               latitude, longitude, created_at, updated_at)
                WITH RECURSIVE n(i) AS (SELECT \(unsafeRaw: "\(chunk * 1000 + 1)") UNION ALL SELECT i + 1 FROM n WHERE i < \(unsafeRaw: "\((chunk + 1) * 1000)"))
                SELECT 'seed' || i, NULL, 'key' || i, 'First', 'Last', 'Place ' || (i * 7919 % 50000),
                       'https://example.com', 0, 0, 1500000000000 + i, 1500000000000 + i FROM n
                """))
        }
    }

    @Test func aQueryPastItsBudgetIs503WithRetryAfterInEachFamilysShape() async throws {
        try await TestServer.run(readBudget: .milliseconds(1)) { server in
            try await seedMany(server)
            let slow = #"?order=mapString&count=1&where=%7B%22mapString%22%3A%7B%22%24ne%22%3A%22x%22%7D%7D"#
            let v1 = try await server.send(.get, "/v1/StudentLocation" + slow)
            #expect(v1.status == .serviceUnavailable, "\(v1.text)")
            #expect(v1.headers[.retryAfter] == "1")
            #expect(try v1.object()["status"] as? Int == 503 && v1.object()["code"] != nil)
            for path in ["/parse/classes/StudentLocation", "/1/classes/StudentLocation"] {
                let parse = try await server.send(.get, path + slow)
                #expect(parse.status == .serviceUnavailable)
                #expect(parse.headers[.retryAfter] == "1")
                #expect(try parse.object()["code"] != nil && parse.object()["status"] == nil)
            }
        }
    }

    /// A database that cannot be used right now is a 503 with `Retry-After`, in the
    /// family's shape, with the reason in the log only.
    @Test func anUnavailableDatabaseIs503WithRetryAfter() async throws {
        let error = ErrorMiddleware.apiError(for: StoreError.unavailable(reason: "connection refused"), logger: .quiet)
        #expect(error.status == 503 && error.retryAfterSeconds == 2)
        #expect(!error.message.contains("connection refused"))
    }
}
