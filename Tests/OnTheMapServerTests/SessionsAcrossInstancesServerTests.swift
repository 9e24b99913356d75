import Foundation
import Hummingbird
import HummingbirdTesting
@testable import OnTheMapServer
@testable import OnTheMapStore
import Testing

/// Two instances of the server on one database: a session ended on one is refused on the other
/// within the delivery of A's notification (docs/API.md, "Sessions across instances"), though B
/// keeps the sessions it has seen in memory (PostgreSQL). On SQLite nothing is kept.
@Suite struct SessionsAcrossInstancesServerTests {
    @Test func aLogoutOnInstanceAIsRefusedOnInstanceB() async throws {
        try await TestServer.runTwoInstances { a, b in
            if let cache = b.store.sessionCache {
                for _ in 0..<500 where !cache.isListening { try await Task.sleep(for: .milliseconds(10)) }
            }
            let student = try await a.signUp()
            let write = try await b.send(.post, "/v1/StudentLocation", body: CourseMountTests.body, headers: student.bearerHeader)
            #expect(write.status == .ok, "B knows the session made on A")
            let objectId = try #require(try write.object()["objectId"] as? String)
            #expect(try await a.send(.delete, "/v1/session", headers: student.bearerHeader).status == .ok)
            let start = ContinuousClock.now
            var status = HTTPResponse.Status.ok
            while status != .unauthorized, ContinuousClock.now - start < .seconds(3) {
                status = try await b.send(.put, "/v1/StudentLocation/\(objectId)", body: CourseMountTests.body, headers: student.bearerHeader).status
                if status != .unauthorized { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(status == .unauthorized, "refused on B well within the kept sessions' lifetime (\(SessionCache.lifetime))")
        }
    }
}
