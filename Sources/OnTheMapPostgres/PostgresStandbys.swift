import Logging
import NIOConcurrencyHelpers
import OnTheMapModel
import PostgresNIO

/// The standbys reads may go to (`--database-replicas`), watched every `interval`: how far the
/// primary's WAL has gone (`pg_current_wal_lsn()`, with when it was seen), and how far each standby
/// has replayed (`pg_last_wal_replay_lsn()`). A standby is in rotation while it is a standby and
/// has replayed everything the primary had written `maxLag` ago; one that lags past that, stops
/// answering or turns out to be the primary (after a failover) is out until it is back within
/// the bound. A read may go to a standby in rotation that has also replayed everything the
/// primary had written when its caller last wrote (`StandbyReads.writtenAt`): a student reads
/// their own write. Otherwise, and whenever no standby qualifies, the primary answers.
final class PostgresStandbys: Sendable {
    private struct Standby {
        let endpoint: PostgresAddress.Endpoint
        let pool: PostgresClient
        var replayed: LSN?
        var inRotation = false
        var why = "not asked yet"
    }

    private struct State {
        /// The primary's WAL position over the last `history`, oldest first, with wall-clock times.
        var primary: [(at: Int64, lsn: LSN)] = []
        var standbys: [Standby]
        var turn = 0
    }

    let address: PostgresAddress
    let maxLag: Duration
    private let state: NIOLockedValueBox<State>
    private let running: Task<Void, Never>
    private let logger: Logger
    static let interval: Duration = .milliseconds(250)
    /// How long positions are kept: longer than any bound worth setting.
    static let history: Int64 = 120_000
    /// Instances' clocks may differ by this much (`writtenAt` may come from another's cookie).
    static let clockMargin: Int64 = 500

    init(address: PostgresAddress, settings: PostgresPools.Settings, maxLag: Duration, poolLogger: Logger, logger: Logger) throws {
        self.address = address
        self.maxLag = maxLag
        self.logger = logger
        var standbys: [Standby] = []
        for endpoint in address.endpoints {
            let pool = PostgresClient(
                configuration: try address.clientConfiguration(
                    for: endpoint, parameters: [("statement_timeout", "\(settings.readBudgetMilliseconds)")], maxConnections: settings.readers),
                backgroundLogger: poolLogger)
            standbys.append(Standby(endpoint: endpoint, pool: pool))
        }
        state = NIOLockedValueBox(State(standbys: standbys))
        running = Task.detached { [standbys] in
            await withDiscardingTaskGroup { group in
                for standby in standbys { group.addTask { await standby.pool.run() } }
            }
        }
    }

    /// A standby's pool for a read by someone who last wrote at `writtenAt` (nil: not lately), in
    /// turn among those that qualify; nil when the primary must answer.
    func pool(forCallerWhoWroteAt writtenAt: Int64?) -> (PostgresAddress.Endpoint, PostgresClient)? {
        state.withLockedValue { state in
            var needed: LSN = 0
            if let writtenAt {
                // The primary's position once the write had committed; none seen yet: the primary.
                guard let seen = state.primary.first(where: { $0.at >= writtenAt + Self.clockMargin }) else { return nil }
                needed = seen.lsn
            }
            let fit = state.standbys.filter { $0.inRotation && ($0.replayed ?? 0) >= needed }
            guard !fit.isEmpty else { return nil }
            state.turn &+= 1
            let chosen = fit[state.turn % fit.count]
            return (chosen.endpoint, chosen.pool)
        }
    }

    /// A read on `endpoint` failed as a database going away does: out of rotation until it answers again.
    func failed(_ endpoint: PostgresAddress.Endpoint, because reason: String) {
        update(endpoint, replayed: nil, inRotation: false, why: reason)
    }

    /// Watches the primary and the standbys until cancelled.
    func watch(primary: PostgresPrimary) async {
        while !Task.isCancelled {
            await sample(primary: primary)
            try? await Task.sleep(for: Self.interval)
        }
    }

    /// Stops watching and closes the standbys' pools.
    func close() async {
        running.cancel()
        _ = await BoundedWait.finishes(running, within: PostgresPools.stopGrace)
    }

    private func sample(primary: PostgresPrimary) async {
        let deadline = Duration.seconds(1)
        let seen = try? await primary.withConnection(\.readers, within: deadline) { [logger] connection in
            try await Self.position(connection.query("SELECT pg_current_wal_lsn()::text", logger: logger))
        }
        if let lsn = seen {
            let now = WallClock.system.nowMillis()
            state.withLockedValue { state in
                state.primary.append((now, lsn))
                state.primary.removeAll { $0.at < now - Self.history }
            }
        }
        let standbys = state.withLockedValue { $0.standbys.map { ($0.endpoint, $0.pool) } }
        await withTaskGroup(of: Void.self) { group in
            for (endpoint, pool) in standbys {
                group.addTask { [self] in await sample(endpoint, on: pool, within: deadline) }
            }
        }
    }

    private func sample(_ endpoint: PostgresAddress.Endpoint, on pool: PostgresClient, within deadline: Duration) async {
        do {
            let replayed = try await PostgresAvailability.withConnection(from: pool, within: deadline) { [logger] connection in
                try await Self.position(connection.query(
                    "SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END", logger: logger))
            }
            guard let replayed else { return update(endpoint, replayed: nil, inRotation: false, why: "it is the primary") }
            let lag = self.lag(of: replayed)
            update(endpoint, replayed: replayed, inRotation: lag <= maxLag,
                   why: lag <= maxLag ? "" : "it has replayed only what the primary had written \(lag.milliseconds.rounded() / 1000) s ago")
        } catch {
            update(endpoint, replayed: nil, inRotation: false, why: PostgresAvailability.unavailability(of: error) ?? "\(error)")
        }
    }

    /// How long ago the primary was where the standby has replayed to (zero when it has replayed
    /// all the primary was seen to write).
    private func lag(of replayed: LSN) -> Duration {
        state.withLockedValue { state in
            guard let ahead = state.primary.first(where: { $0.lsn > replayed }) else { return .zero }
            return .milliseconds(WallClock.system.nowMillis() - ahead.at)
        }
    }

    private func update(_ endpoint: PostgresAddress.Endpoint, replayed: LSN?, inRotation: Bool, why: String) {
        let change = state.withLockedValue { state -> Bool? in
            guard let index = state.standbys.firstIndex(where: { $0.endpoint == endpoint }) else { return nil }
            let was = state.standbys[index].inRotation
            state.standbys[index].replayed = replayed
            state.standbys[index].inRotation = inRotation
            state.standbys[index].why = why
            return was == inRotation ? nil : inRotation
        }
        switch change {
        case true?: logger.notice("Reads go to the standby \(endpoint) again")
        case false?: logger.warning("Reads no longer go to the standby \(endpoint): \(why)")
        case nil: break
        }
    }

    /// The one LSN a query answers, as a number; nil for NULL.
    private static func position(_ rows: PostgresRowSequence) async throws -> LSN? {
        var found: LSN?
        for try await text in rows.decode(String?.self) { found = text.flatMap(LSN.init(text:)) }
        return found
    }
}

/// A position in PostgreSQL's write-ahead log, `16/B374D848` as a number.
typealias LSN = UInt64

extension LSN {
    init?(text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16) else { return nil }
        self = high << 32 | low
    }
}
