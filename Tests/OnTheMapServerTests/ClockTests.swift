import Foundation
import NIOConcurrencyHelpers
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// Time is a dependency. The services read the clock they are handed, so a test
/// moves time instead of waiting for it.
@Suite struct ClockTests {
    /// The machine's time plus an offset the test moves.
    final class MovableClock: Sendable {
        private let offsetMicros = NIOLockedValueBox<Int64>(0)
        var clock: WallClock {
            WallClock { [offsetMicros] in WallClock.system.nowMicros() + offsetMicros.withLockedValue { $0 } }
        }
        func advance(days: Int64) { advance(seconds: days * 86_400) }
        func advance(seconds: Int64) { offsetMicros.withLockedValue { $0 += seconds * 1_000_000 } }
    }

    @Test func aSessionEndsWhenTheServersClockPassesItsLifetime() async throws {
        let time = MovableClock()
        // The idle bound past the lifetime: this is the lifetime's test.
        try await TestServer.run(configure: { $0.sessionIdleSeconds = 60 * 86_400 }, clock: time.clock) { server in
            let student = try await server.signUp()
            #expect(try await server.send(.get, "/v1/me", headers: student.bearerHeader).status == .ok)
            time.advance(days: 29)
            #expect(try await server.send(.get, "/v1/me", headers: student.bearerHeader).status == .ok)
            time.advance(days: 2)
            #expect(try await server.send(.get, "/v1/me", headers: student.bearerHeader).status == .unauthorized)
        }
    }

    @Test func aPostIsStampedWithTheServersClock() async throws {
        let time = MovableClock()
        time.advance(days: 365)
        try await TestServer.run(clock: time.clock) { server in
            let objectId = try await server.postLocation(as: try await server.signUp())
            let saved = try #require(try await server.store.location(objectId: objectId))
            #expect(saved.location.createdAt > WallClock.system.nowMillis() + 364 * 86_400_000)
        }
    }
}
