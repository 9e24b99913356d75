import Foundation
import NIOConcurrencyHelpers
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// Expensive reads have their own small lane. When it and its line are full, more
/// expensive reads get 503 with `Retry-After` at once, and cheap reads are still served.
@Suite struct FairnessTests {
    /// A lane place held by the test until `release`.
    final class Occupant: Sendable {
        let released = AsyncStream<Void>.makeStream()
        func release() { released.continuation.finish() }
        func hold(_ lane: WorkLane, key: String = "") -> Task<Void, any Error> {
            Task { try await lane.run(key: key) { for await _ in released.stream {} } }
        }
    }

    @Test func aFullExpensiveLaneRefusesExpensiveReadsAndServesCheapOnes() async throws {
        var configuration = AppConfiguration()
        configuration.expensiveReadConcurrency = 1
        configuration.expensiveReadQueue = 0
        let lanes = ReadLanes(configuration)
        try await TestServer.run(lanes: lanes) { server in
            let student = try await server.signUp()
            let objectId = try await server.postLocation(as: student)
            let occupant = Occupant()
            let held = occupant.hold(lanes.expensive)
            while lanes.expensive.load.running < 1 { try await Task.sleep(for: .milliseconds(1)) }

            for path in ["/v1/StudentLocation", "/parse/classes/StudentLocation"] {
                let expensive = try await server.send(.get, path + "?order=mapString")
                #expect(expensive.status == .serviceUnavailable, "\(expensive.text)")
                #expect(expensive.headers[.retryAfter] == "1")
                #expect(try expensive.object()["code"] != nil)
            }
            let cheap = try await server.send(.get, "/v1/StudentLocation?where=%7B%22objectId%22%3A%22\(objectId)%22%7D&order=mapString")
            #expect(cheap.status == .ok)
            #expect(try await server.send(.get, "/v1/StudentLocation?order=-createdAt&count=1").status == .ok)

            occupant.release()
            try await held.value
            #expect(try await server.send(.get, "/v1/StudentLocation?order=mapString").status == .ok)
        }
    }

    @Test func waitersTakeFreedPlacesInTurnAndCancelledOnesLeaveTheLine() async throws {
        let lane = WorkLane(name: "test", concurrency: 1, queueLimit: 2)
        let occupant = Occupant()
        let held = occupant.hold(lane)
        while lane.load.running < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let waiting = Task { try await lane.run { 42 } }
        let cancelled = Task { try await lane.run { 0 } }
        while lane.load.waiting < 2 { try await Task.sleep(for: .milliseconds(1)) }
        await #expect(throws: APIError.self) { try await lane.run { 1 } }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        occupant.release()
        try await held.value
        #expect(try await waiting.value == 42)
        #expect(lane.load.running == 0 && lane.load.waiting == 0)
    }

    /// Password hashes are shared fairly across client addresses.
    @Test func aFreedPlaceGoesToTheKeyServedLongestAgoAndOneKeyIsBounded() async throws {
        let lane = WorkLane(name: "password checks", concurrency: 1, queueLimit: 16, perKeyLimit: 6)
        let occupant = Occupant()
        let held = occupant.hold(lane, key: "A")
        while lane.load.running < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let served = NIOLockedValueBox<[String]>([])
        var queued: [Task<Void, any Error>] = []
        for key in ["A", "A", "A", "A", "B", "A"] {
            let before = lane.load.waiting
            queued.append(Task { try await lane.run(key: key) { served.withLockedValue { $0.append(key) } } })
            while lane.load.waiting == before { try await Task.sleep(for: .milliseconds(1)) }
        }
        // "A" holds six places (one running, five waiting): a seventh is refused with 429.
        let refusal = await #expect(throws: APIError.self) { try await lane.run(key: "A") {} }
        #expect(refusal?.status == 429)
        occupant.release()
        try await held.value
        for task in queued { try await task.value }
        #expect(served.withLockedValue { $0 } == ["B", "A", "A", "A", "A", "A"])
        #expect(lane.load.running == 0 && lane.load.waiting == 0)
    }
}
