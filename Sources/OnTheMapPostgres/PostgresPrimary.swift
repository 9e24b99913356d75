import Logging
import NIOConcurrencyHelpers
import OnTheMapModel
import OnTheMapStore
import PostgresNIO

/// Which host of the database URL takes writes, and the pools to it. A URL of one host is that
/// host for good (a restart there is met by the pools reconnecting). A URL of several hosts names
/// the machines a primary may be on (pg_auto_failover, Patroni): when a request finds the database
/// gone, and every `checkInterval` besides, the primary is asked whether it still takes writes;
/// when it does not (it died, or was made a standby by a failover or a switchover), every host is
/// asked until one does, and the pools move there. Meanwhile requests are answered 503 within their
/// deadline as in any outage, with what the search found as the reason; nothing is restarted or
/// reconfigured by hand.
final class PostgresPrimary: Sendable {
    private struct State {
        var pools: PostgresPools
        /// Since when no host takes writes, and what each host said; nil while the primary does.
        var search: (since: ContinuousClock.Instant, findings: String)?
        var closed = false
    }

    let address: PostgresAddress
    /// The poolers in front of the hosts, in the same order, when reads and writes go through them.
    let pooler: PostgresAddress?
    private let settings: PostgresPools.Settings
    private let state: NIOLockedValueBox<State>
    private let suspicion: AsyncStream<Void>.Continuation
    private let suspicions: AsyncStream<Void>
    private let poolLogger: Logger
    private let logger: Logger
    /// How often a primary that seems well is asked anyway (a switchover that left our connections open).
    static let checkInterval: Duration = .seconds(5)
    /// How often the hosts are asked while none takes writes.
    static let searchInterval: Duration = .milliseconds(250)
    /// How long one host may take to say what it is.
    static let askTimeout: Duration = .seconds(2)

    private init(
        address: PostgresAddress, pooler: PostgresAddress?, settings: PostgresPools.Settings, pools: PostgresPools, poolLogger: Logger, logger: Logger
    ) {
        self.address = address
        self.pooler = pooler
        self.settings = settings
        self.poolLogger = poolLogger
        self.logger = logger
        state = NIOLockedValueBox(State(pools: pools))
        (suspicions, suspicion) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The pools to the primary as last found.
    var pools: PostgresPools { state.withLockedValue { $0.pools } }

    /// ", no host has taken writes for N s (HOST: why; …)" while the primary is being looked for.
    var searchDescription: String {
        guard let search = state.withLockedValue({ $0.search }) else { return "" }
        return "; no host has taken writes for \((ContinuousClock.now - search.since).components.seconds) s (\(search.findings))"
    }

    /// Finds the host that takes writes and starts the pools there. Fails with a
    /// `DatabaseConnectError` when none does within `timeout`, or at once after a few seconds when
    /// every host refuses (a bad password, a certificate, no server): waiting would not change that.
    static func find(
        _ address: PostgresAddress, through pooler: PostgresAddress?, settings: PostgresPools.Settings, within timeout: Duration, poolLogger: Logger,
        logger: Logger
    ) async throws -> PostgresPrimary {
        let started = ContinuousClock.now
        while true {
            let left = timeout - (ContinuousClock.now - started)
            let roles = await PostgresHostRole.ofEach(in: address, timeout: min(askTimeout * 2, max(left, .milliseconds(100))), logger: logger)
            if let endpoint = roles.first(where: { $0.1 == .primary })?.0 {
                let pools = try await PostgresPools.started(
                    endpoint, of: address, through: poolerAddress(of: endpoint, in: address, pooler: pooler), settings: settings, logger: poolLogger)
                return PostgresPrimary(address: address, pooler: pooler, settings: settings, pools: pools, poolLogger: poolLogger, logger: logger)
            }
            let elapsed = ContinuousClock.now - started
            if elapsed >= timeout || (elapsed >= .seconds(3) && roles.allSatisfy(\.1.refused)) {
                let reason = address.movesBetweenHosts ? "no host takes writes (\(findings(roles)))"
                    : roles[0].1 == .standby ? "it is a standby, which takes no writes: name the primary" : roles[0].1.description
                throw DatabaseConnectError(address: address.description, reason: roles.allSatisfy(\.1.refused) ? reason : "\(reason), waited \(timeout)")
            }
            try await Task.sleep(for: searchInterval)
        }
    }

    /// A request found the database gone: check whether the primary moved.
    func suspect() {
        guard address.movesBetweenHosts else { return }
        suspicion.yield()
    }

    /// Runs `body` on a connection of the primary's `pool`, as `PostgresAvailability.withConnection`
    /// does; a failure that says the database is gone sets off a check of where the primary is.
    /// While no host takes writes, it is answered at once: waiting for a connection to a host that
    /// is known to be gone would only make the 503 slower (and nginx tries every instance in turn).
    func withConnection<T: Sendable>(
        _ pool: KeyPath<PostgresPools, PostgresClient> & Sendable, within deadline: Duration, runningWithin runDeadline: Duration? = nil,
        attempts: ConnectionAttempts? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let searching = searchDescription
        guard searching.isEmpty else { throw StoreError.unavailable(reason: "the PostgreSQL primary is being looked for" + searching) }
        do {
            return try await PostgresAvailability.withConnection(from: pools[keyPath: pool], within: deadline, runningWithin: runDeadline, attempts: attempts, body)
        } catch StoreError.unavailable(let reason) {
            suspect()
            throw StoreError.unavailable(reason: reason + searchDescription)
        } catch {
            if PostgresAvailability.unavailability(of: error) != nil { suspect() }
            throw error
        }
    }

    /// Watches the primary until cancelled (a URL of one host has nothing to watch).
    func watch() async {
        guard address.movesBetweenHosts else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [suspicion] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.checkInterval)
                    suspicion.yield()
                }
            }
            for await _ in suspicions {
                if Task.isCancelled { break }
                await checkAndFollow()
                // Failures that leave the primary where it is (a full disk) come with every
                // request: at most two checks a second, however many suspect it.
                try? await Task.sleep(for: Self.searchInterval * 2)
            }
            group.cancelAll()
        }
    }

    /// Asks the primary; when it does not take writes, asks every host until one does and moves
    /// the pools there.
    private func checkAndFollow() async {
        let current = pools.endpoint
        if await PostgresHostRole.of(current, in: address, timeout: Self.askTimeout, logger: logger) == .primary { return }
        let since = ContinuousClock.now
        while !Task.isCancelled {
            let roles = await PostgresHostRole.ofEach(in: address, timeout: Self.askTimeout, logger: logger)
            if let endpoint = roles.first(where: { $0.1 == .primary })?.0 {
                await move(to: endpoint, after: since)
                return
            }
            let findings = Self.findings(roles)
            let first = state.withLockedValue { state -> Bool in
                defer { state.search = (state.search?.since ?? since, findings) }
                return state.search == nil
            }
            if first { logger.warning("The PostgreSQL primary \(current) does not take writes; looking for it on every host (\(findings))") }
            try? await Task.sleep(for: Self.searchInterval)
        }
    }

    private func move(to endpoint: PostgresAddress.Endpoint, after since: ContinuousClock.Instant) async {
        let old = pools
        defer { state.withLockedValue { $0.search = nil } }
        guard endpoint != old.endpoint else {
            if state.withLockedValue({ $0.search != nil }) { logger.notice("The PostgreSQL primary \(endpoint) takes writes again") }
            return
        }
        do {
            let pools = try await PostgresPools.started(
                endpoint, of: address, through: Self.poolerAddress(of: endpoint, in: address, pooler: pooler), settings: settings, logger: poolLogger)
            let closed = state.withLockedValue { state -> Bool in
                if !state.closed { state.pools = pools }
                return state.closed
            }
            if closed {
                await pools.retire()
                return
            }
            logger.notice("The PostgreSQL primary moved from \(old.endpoint) to \(endpoint); writes go there (\((ContinuousClock.now - since).milliseconds.rounded() / 1000) s without one)")
            Task { await old.retire() }
        } catch {
            logger.error("Could not connect to the new PostgreSQL primary \(endpoint): \(error)")
        }
    }

    /// Stops watching and closes the pools.
    func close() async -> Bool {
        suspicion.finish()
        let pools = state.withLockedValue { state in
            state.closed = true
            return state.pools
        }
        return await pools.retire()
    }

    /// The pooler in front of `endpoint`: the pooler URL's host at the same place in its list.
    private static func poolerAddress(of endpoint: PostgresAddress.Endpoint, in address: PostgresAddress, pooler: PostgresAddress?) -> PostgresAddress? {
        guard let pooler, let index = address.endpoints.firstIndex(of: endpoint), pooler.endpoints.indices.contains(index) else { return nil }
        return pooler.only(pooler.endpoints[index])
    }

    private static func findings(_ roles: [(PostgresAddress.Endpoint, PostgresHostRole)]) -> String {
        roles.map { "\($0.0): \($0.1)" }.joined(separator: "; ")
    }
}
