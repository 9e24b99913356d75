import Foundation
import OnTheMapModel
@testable import OnTheMapPostgres
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// A database URL of several hosts names the machines a primary may be on: the engine writes to
/// the one that takes writes and follows it when it moves, with no restart. Here the "hosts" are
/// relays to the test cluster that the test takes away and brings back (TCPRelay);
/// scripts/test/failover-test.sh does it for real, with pg_auto_failover promoting a standby.
@Suite(.enabled(if: TestEngine.current == .postgres, "a primary that can move is PostgreSQL's"))
struct PrimaryMovesTests {
    @Test func aHostThatDoesNotAnswerIsPassedOver() async throws {
        try await TestDatabase.withFresh { temporary in
            let real = try PostgresAddress(temporary.location)
            let lost = try await TCPRelay.to(host: real.host, port: real.port, listening: false)
            let engine = try await PostgresEngine.open(
                try temporary.address(ports: [lost.port, real.port]), options: .small, connectTimeout: .seconds(300), logger: .quiet)
            #expect(engine.primaryEndpoint.port == real.port)
            let owner = try await engine.store.newAccount("Passed over")
            #expect(try await engine.store.pin(owner, at: "Here").mapString == "Here")
            try await engine.close()
        }
    }

    @Test func whenThePrimaryMovesWritesFollowItWithoutARestart() async throws {
        try await TestDatabase.withFresh { temporary in
            let real = try PostgresAddress(temporary.location)
            let first = try await TCPRelay.to(host: real.host, port: real.port)
            let second = try await TCPRelay.to(host: real.host, port: real.port, listening: false)
            let engine = try await PostgresEngine.open(
                try temporary.address(ports: [first.port, second.port]), options: .small, connectTimeout: .seconds(300), logger: .quiet)
            let store = engine.store
            let owner = try await store.newAccount("Follower")
            _ = try await store.pin(owner, at: "Before")
            #expect(engine.primaryEndpoint.port == first.port)

            // The first host is lost; the primary is on the second now.
            await first.stop()
            try await second.listen()
            var refusals: [String] = []
            var after: StudentLocation?
            let deadline = ContinuousClock.now + .seconds(300)
            while after == nil, ContinuousClock.now < deadline {
                do {
                    after = try await store.pin(owner, at: "After")
                } catch StoreError.unavailable(let reason) {
                    refusals.append(reason)
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            #expect(after?.mapString == "After", "writes go to the second host: \(refusals.suffix(3))")
            #expect(engine.primaryEndpoint.port == second.port)
            #expect(try await store.location(ownerKey: owner.key, in: .default)?.location.mapString == "After", "reads follow too")
            try await engine.close()
        }
    }

    @Test func noHostThatTakesWritesIsNamedHostByHost() async throws {
        try await TestDatabase.withFresh { temporary in
            let real = try PostgresAddress(temporary.location)
            let lost = try await TCPRelay.to(host: real.host, port: real.port, listening: false)
            let alsoLost = try await TCPRelay.to(host: real.host, port: real.port, listening: false)
            let error = await #expect(throws: DatabaseConnectError.self) {
                try await PostgresEngine.open(
                    try temporary.address(ports: [lost.port, alsoLost.port]), options: .small, connectTimeout: .seconds(300), logger: .quiet)
            }
            let reason = error?.reason ?? ""
            #expect(reason.contains("no host takes writes") && reason.contains("127.0.0.1:\(lost.port): connection refused")
                && reason.contains("127.0.0.1:\(alsoLost.port): connection refused"), "\(reason)")
        }
    }
}

extension TestDatabase {
    /// This database's URL with its host replaced by 127.0.0.1 on each of `ports`.
    fileprivate func address(ports: [Int]) throws -> PostgresAddress {
        let real = try PostgresAddress(location)
        let hosts = ports.map { "127.0.0.1:\($0)" }.joined(separator: ",")
        return try PostgresAddress(location.replacingOccurrences(of: "\(real.host):\(real.port)", with: hosts) + "&target_session_attrs=read-write")
    }
}

extension PostgresEngine.Options {
    /// As `TestDatabase.open`'s: a hundred suites share the cluster and two cores, so a connection
    /// may be minutes away. A request on a host that is gone is then answered when the primary has
    /// moved and the old pools are retired (the check every 5 s finds it), not at a short deadline.
    fileprivate static var small: Self {
        var options = Self()
        options.readers = 2
        options.writers = 2
        options.readBudget = .seconds(600)
        options.leaseDeadline = .seconds(600)
        return options
    }
}
