import Foundation
import HummingbirdTesting
@testable import OnTheMapServer
import Testing

/// An expensive query whose client has gone is stopped, whether it runs or waits in its
/// lane; the work of clients that stay is untouched, and their connections stay open for more.
/// (That a cancelled read is interrupted inside SQLite is ReadBudgetTests' part.)
@Suite struct ClientDisconnectTests {
    static let expensiveRequest = "GET /v1/StudentLocation?order=mapString HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test func aQueuedExpensiveReadLeavesTheLineWhenItsClientHangsUp() async throws {
        var configuration = AppConfiguration()
        configuration.expensiveReadConcurrency = 1
        configuration.expensiveReadQueue = 4
        let lanes = ReadLanes(configuration)
        try await TestServer.run(lanes: lanes, live: true) { server in
            let port = try #require(server.client.port)
            let occupant = FairnessTests.Occupant()
            let held = occupant.hold(lanes.expensive)
            try await waitUntil { lanes.expensive.load.running == 1 }

            let leaving = try RawConnection(port: port)
            let staying = try RawConnection(port: port)
            try leaving.send(Self.expensiveRequest)
            try staying.send(Self.expensiveRequest)
            try await waitUntil { lanes.expensive.load.waiting == 2 }

            leaving.close()
            try await waitUntil { lanes.expensive.load.waiting == 1 }

            occupant.release()
            try await held.value
            let answer = try await staying.readResponse()
            #expect(answer.statusLine == "HTTP/1.1 200 OK", "\(answer)")
            #expect(answer.body.hasPrefix(#"{"results":"#))
            // The same connection serves the next request: watching for a hang-up reads nothing
            // of it.
            try staying.send(Self.expensiveRequest)
            #expect(try await staying.readResponse().statusLine == "HTTP/1.1 200 OK")
            #expect(lanes.expensive.load.running == 0 && lanes.expensive.load.waiting == 0)
        }
    }

    @Test func cheapAndExpensiveReadsStillAnswerOverTheRouterTestClient() async throws {
        // The router test client has no connection to watch: the work simply runs.
        try await TestServer.run { server in
            let expensive = try await server.send(.get, "/v1/StudentLocation?order=mapString")
            let cheap = try await server.send(.get, "/parse/classes/StudentLocation?count=1&limit=0")
            #expect(expensive.status == .ok && cheap.status == .ok)
        }
    }

    /// Polls `condition` every millisecond for up to 5 minutes (a machine running every suite at once can
    /// be slow to schedule anything; a working server gets there in milliseconds).
    private func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("condition not reached within 5 minutes", sourceLocation: sourceLocation)
                throw TestFailure("timed out")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
