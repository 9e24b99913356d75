import Logging
import PostgresNIO

/// The connection pools to one host: reads (each connection under the read budget), writes, and
/// the change channel's listener. They run from `start` until `retire`; when the primary moves to
/// another host, `PostgresPrimary` starts a new set there and retires this one.
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
    let listener: PostgresClient
    private let running: Task<Void, Never>

    /// How long `retire` waits for the pools to stop once told to: once, on a machine running a
    /// hundred test suites, a PostgresClient told to stop never did, with no connection left open.
    static let stopGrace: Duration = .seconds(10)

    private init(endpoint: PostgresAddress.Endpoint, readers: PostgresClient, writers: PostgresClient, listener: PostgresClient, running: Task<Void, Never>) {
        self.endpoint = endpoint
        self.readers = readers
        self.writers = writers
        self.listener = listener
        self.running = running
    }

    private static func start(
        _ endpoint: PostgresAddress.Endpoint, of address: PostgresAddress, settings: Settings, logger poolLogger: Logger
    ) throws -> (pools: PostgresPools, started: AsyncStream<Void>) {
        let readers = PostgresClient(
            configuration: try address.clientConfiguration(
                for: endpoint, parameters: [("statement_timeout", "\(settings.readBudgetMilliseconds)")], maxConnections: settings.readers),
            backgroundLogger: poolLogger)
        let writers = PostgresClient(
            configuration: try address.clientConfiguration(for: endpoint, parameters: [], maxConnections: settings.writers), backgroundLogger: poolLogger)
        let listener = PostgresClient(
            configuration: try address.clientConfiguration(for: endpoint, parameters: [], maxConnections: 1), backgroundLogger: poolLogger)
        // Detached: the pools must outlive a graceful shutdown of whatever task opens the engine,
        // until they are retired (answered writes first). Each signals once it is about to run.
        let (started, starting) = AsyncStream<Void>.makeStream()
        let running = Task.detached {
            await withDiscardingTaskGroup { group in
                for client in [readers, writers, listener] {
                    group.addTask {
                        starting.yield()
                        await client.run()
                    }
                }
            }
        }
        return (PostgresPools(endpoint: endpoint, readers: readers, writers: writers, listener: listener, running: running), started)
    }

    /// Starts the pools to `endpoint` and returns once all three run, so that nothing asks one for a
    /// connection before.
    static func started(_ endpoint: PostgresAddress.Endpoint, of address: PostgresAddress, settings: Settings, logger: Logger) async throws -> PostgresPools {
        let (pools, started) = try start(endpoint, of: address, settings: settings, logger: logger)
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
