import Logging
import PostgresNIO

/// The connection pools to one host: reads (each connection under the read budget), writes, and
/// direct connections for what must hold one server session (the change channel's `LISTEN`, the
/// migrations' advisory lock). They run from `start` until `retire`; when the primary moves to
/// another host, `PostgresPrimary` starts a new set there and retires this one. Through a
/// connection pooler in transaction mode (PgBouncer), reads and writes go through it and the direct
/// connections go to the host itself.
final class PostgresPools: Sendable {
    struct Settings: Sendable {
        var readers: Int
        var writers: Int
        /// `statement_timeout` of every read connection, in milliseconds.
        var readBudgetMilliseconds: Int64
    }

    let endpoint: PostgresAddress.Endpoint
    let readers: PostgresClient
    let writers: PostgresClient
    /// Straight to the host, never through a pooler: `LISTEN`, and the migrations' session lock.
    let direct: PostgresClient
    private let running: Task<Void, Never>

    /// How long `retire` waits for the pools to stop once told to: once, on a machine running a
    /// hundred test suites, a PostgresClient told to stop never did, with no connection left open.
    static let stopGrace: Duration = .seconds(10)

    private init(endpoint: PostgresAddress.Endpoint, readers: PostgresClient, writers: PostgresClient, direct: PostgresClient, running: Task<Void, Never>) {
        self.endpoint = endpoint
        self.readers = readers
        self.writers = writers
        self.direct = direct
        self.running = running
    }

    /// `pooler`: the pooler in front of `endpoint` (an address of one host), when reads and writes
    /// go through one. A pooler in transaction mode passes no session state, so its connections
    /// carry no settings (`statement_timeout`, `search_path`): see `PostgresPrimary.checkPooler`.
    private static func start(
        _ endpoint: PostgresAddress.Endpoint, of address: PostgresAddress, through pooler: PostgresAddress?, settings: Settings, logger poolLogger: Logger
    ) throws -> (pools: PostgresPools, started: AsyncStream<Void>) {
        let pooled = pooler ?? address
        let pooledEndpoint = pooler?.endpoints[0] ?? endpoint
        let budget = pooler == nil ? [("statement_timeout", "\(settings.readBudgetMilliseconds)")] : []
        let readers = PostgresClient(
            configuration: try pooled.clientConfiguration(for: pooledEndpoint, parameters: budget, maxConnections: settings.readers),
            backgroundLogger: poolLogger)
        let writers = PostgresClient(
            configuration: try pooled.clientConfiguration(for: pooledEndpoint, parameters: [], maxConnections: settings.writers), backgroundLogger: poolLogger)
        // One held by `LISTEN` for good, one for the migrations at start.
        let direct = PostgresClient(
            configuration: try address.clientConfiguration(for: endpoint, parameters: [], maxConnections: 2), backgroundLogger: poolLogger)
        // Detached: the pools must outlive a graceful shutdown of whatever task opens the engine,
        // until they are retired (answered writes first). Each signals once it is about to run.
        let (started, starting) = AsyncStream<Void>.makeStream()
        let running = Task.detached {
            await withDiscardingTaskGroup { group in
                for client in [readers, writers, direct] {
                    group.addTask {
                        starting.yield()
                        await client.run()
                    }
                }
            }
        }
        return (PostgresPools(endpoint: endpoint, readers: readers, writers: writers, direct: direct, running: running), started)
    }

    /// Starts the pools to `endpoint` and returns once all three run, so that nothing asks one for a
    /// connection before.
    static func started(
        _ endpoint: PostgresAddress.Endpoint, of address: PostgresAddress, through pooler: PostgresAddress?, settings: Settings, logger: Logger
    ) async throws -> PostgresPools {
        let (pools, started) = try start(endpoint, of: address, through: pooler, settings: settings, logger: logger)
        var count = 0
        for await _ in started {
            count += 1
            if count == 3 { break }
        }
        return pools
    }

    /// Closes every connection: a request still on one fails as the database going away does (503).
    /// False when the pools did not stop within `stopGrace` (they are left behind).
    @discardableResult
    func retire() async -> Bool {
        running.cancel()
        return await BoundedWait.finishes(running, within: Self.stopGrace)
    }
}
