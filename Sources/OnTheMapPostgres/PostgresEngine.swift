import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OnTheMapModel
import OnTheMapStore
import PostgresNIO

/// A PostgreSQL database shared by any number of server instances: a pool for reads (each
/// connection under the read budget), a pool for writes, and one connection listening for other
/// instances' changes. The pools run from `open` until `close`.
public final class PostgresEngine: DatabaseEngine, Sendable {
    /// How the pools are sized; the defaults suit one instance of several.
    public struct Options: Sendable {
        /// Connections for reads, so this many reads can run at once.
        public var readers = 8
        /// Connections for writes.
        public var writers = 4
        /// How long one read may run before the server cancels it.
        public var readBudget: Duration = .milliseconds(250)
        /// Writes that may be in flight (running or waiting for a connection) before more are refused.
        public var maxPendingWrites = 1024
        /// How long a request waits for a connection before it is answered 503 with `Retry-After`:
        /// while PostgreSQL restarts or is unreachable, requests fail fast rather than hang.
        public var leaseDeadline: Duration = .seconds(1)
        /// A connection pooler in transaction mode (PgBouncer) in front of each host, in the same
        /// order: reads and writes go through it, `LISTEN` and the migrations straight to the host.
        public var pooler: PostgresAddress?
        /// Standbys that the reads no cache holds may go to (`PostgresStandbys`).
        public var replicas: PostgresAddress?
        /// How far behind the primary a standby may be and still take reads.
        public var maxReplicaLag: Duration = .seconds(2)

        public init() {}
    }

    public let address: PostgresAddress
    public let store: SQLStore
    public var servesManyInstances: Bool { true }
    private let primary: PostgresPrimary
    /// The host that takes writes, as last found.
    public var primaryEndpoint: PostgresAddress.Endpoint { primary.pools.endpoint }
    private let watching: Task<Void, Never>
    private let standbys: PostgresStandbys?
    private let writer: PostgresWriter
    private let channel: ChangeChannel
    private let logger: Logger

    private init(primary: PostgresPrimary, standbys: PostgresStandbys?, options: Options, attempts: ConnectionAttempts, logger: Logger) {
        address = primary.address
        self.primary = primary
        self.standbys = standbys
        self.logger = logger
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let changes = LocationChangeFeed()
        channel = ChangeChannel(schema: address.schema)
        // Half the deadline: a write may wait for the notification in flight, then for its own.
        let announcer = CommitAnnouncer(timeout: options.leaseDeadline / 2, logger: logger) { [primary, channel, deadline = options.leaseDeadline] courses in
            _ = try await primary.withConnection(\.writers, within: deadline) { connection in
                try await connection.query(channel.notifyQuery(courses: courses), logger: logger)
            }
        }
        writer = PostgresWriter(
            source: .primary(primary), changes: changes, announcer: announcer, maxPending: options.maxPendingWrites, leaseDeadline: options.leaseDeadline,
            prepares: options.pooler == nil, logger: logger, eventLoop: eventLoop, attempts: attempts)
        store = SQLStore(
            reader: PostgresReader(
                primary: primary, leaseDeadline: options.leaseDeadline, budget: options.readBudget, prepares: options.pooler == nil, logger: logger,
                eventLoop: eventLoop, attempts: attempts, standbys: standbys),
            writer: writer, flavour: PostgresFlavour(), changes: changes,
            sessionCache: .announcing(on: channel, primary: primary, within: options.leaseDeadline, logger: logger))
        watching = Task.detached {
            await withDiscardingTaskGroup { group in
                group.addTask { await primary.watch() }
                if let standbys { group.addTask { await standbys.watch(primary: primary) } }
            }
        }
    }

    /// Finds the primary, connects, creates the schema if asked for one, and applies the
    /// migrations. Fails with a `DatabaseConnectError` naming the server when it cannot be reached
    /// within `connectTimeout`.
    public static func open(
        _ address: PostgresAddress, options: Options = Options(), connectTimeout: Duration = .seconds(15), logger: Logger
    ) async throws -> PostgresEngine {
        if let reason = options.pooler.flatMap({ PostgresPooler.whyNot($0, for: address) }) {
            throw DatabaseConnectError(address: options.pooler?.description ?? "", reason: reason)
        }
        let attempts = ConnectionAttempts()
        let budget = max(1, options.readBudget.components.seconds * 1000 + options.readBudget.components.attoseconds / 1_000_000_000_000_000)
        let started = ContinuousClock.now
        let primary = try await PostgresPrimary.find(
            address, through: options.pooler, settings: .init(readers: options.readers, writers: options.writers, readBudgetMilliseconds: budget),
            within: connectTimeout, poolLogger: attempts.poolLogger(logger), logger: logger)
        let settings = PostgresPools.Settings(readers: options.readers, writers: options.writers, readBudgetMilliseconds: budget)
        let standbys = try options.replicas.map {
            try PostgresStandbys(address: $0, settings: settings, maxLag: options.maxReplicaLag, poolLogger: attempts.poolLogger(logger), logger: logger)
        }
        let engine = PostgresEngine(primary: primary, standbys: standbys, options: options, attempts: attempts, logger: logger)
        do {
            try await withTimeout(max(connectTimeout - (ContinuousClock.now - started), .seconds(1)), address: address) {
                if let schema = address.schema { try await engine.createSchema(schema) }
                if let pooler = options.pooler { try await PostgresPooler.check(pooler, for: address, pools: primary.pools, logger: logger) }
                try await engine.store.migrate(logger: logger)
                try await engine.warnIfCommitsAreNotDurable()
            }
        } catch {
            try? await engine.close()
            throw error
        }
        return engine
    }

    /// Creates the schema unless it exists. Two instances starting at once can both find it missing;
    /// the one that loses the race is told the name is taken, which is as good as creating it.
    private func createSchema(_ schema: String) async throws {
        do {
            try await primary.pools.writers.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
        } catch let error as PSQLError where [PostgresError.Code.uniqueViolation.raw, PostgresError.Code.duplicateSchema.raw]
            .contains(error.serverInfo?[.sqlState]) {
            return
        }
    }

    /// An answered write must survive a crash of the database server; with `synchronous_commit`
    /// off, the last few hundred milliseconds of them would not.
    private func warnIfCommitsAreNotDurable() async throws {
        let rows = try await primary.pools.writers.query("SHOW synchronous_commit", logger: logger)
        for try await setting in rows.decode(String.self) where setting == "off" {
            logger.warning("PostgreSQL has synchronous_commit=off: writes answered just before a crash of the database server can be lost.")
        }
    }

    /// Listens on the change channel and announces every other instance's committed location
    /// changes. A lost connection is retried every `interval`; since notifications sent meanwhile
    /// are lost, each reconnection itself counts as a change.
    /// Losing the channel is announced too (`.interrupted`, once per loss): live streams cannot
    /// hear every change meanwhile, so they are ended and resume from the log.
    public func watchExternalWrites(every interval: Duration) async throws {
        let listening = NIOLockedValueBox((ever: false, now: false))
        while true {
            try Task.checkCancellation()
            do {
                try await primary.pools.direct.withConnection { connection in
                    try await connection.listen(on: channel.name) { notifications in
                        let before = listening.withLockedValue { state in
                            defer { state = (true, true) }
                            return state.ever
                        }
                        if before { store.changes.publish([.unknown]) }
                        store.sessionCache?.listening(true)
                        for try await notification in notifications {
                            if let accounts = channel.sessionsChanged(announcedBy: notification.payload) { store.sessionCache?.drop(accounts: accounts) }
                            store.changes.publish(channel.changes(announcedBy: notification.payload))
                        }
                    }
                }
            } catch where !Task.isCancelled {
                logger.warning("Lost the PostgreSQL change channel, reconnecting: \(error)")
            }
            let wasListening = listening.withLockedValue { state in
                defer { state.now = false }
                return state.now
            }
            // Changes to sessions go unheard until the channel is back: none is kept meanwhile.
            store.sessionCache?.listening(false)
            if wasListening { store.changes.publish([.interrupted]) }
            try await Task.sleep(for: interval)
        }
    }

    /// Answers the writes in flight, then closes every connection. The pools get
    /// `PostgresPools.stopGrace` to stop; a server shutting down does not wait for good on a pool
    /// that never does, which is left behind with a warning.
    public func close() async throws {
        await writer.waitUntilIdle()
        watching.cancel()
        await standbys?.close()
        if await !primary.close() {
            logger.warning("PostgreSQL connection pools did not stop within \(PostgresPools.stopGrace) of closing; leaving them behind")
        }
    }
}

/// PostgreSQL could not be reached or set up; says where (without the password) and why.
public struct DatabaseConnectError: Error, CustomStringConvertible {
    public let address: String
    public let reason: String

    public var description: String { "cannot use the database \(address): \(reason)" }
}

/// Runs `body`, failing with `DatabaseConnectError` if it takes longer than `timeout`.
private func withTimeout(_ timeout: Duration, address: PostgresAddress, _ body: @escaping @Sendable () async throws -> Void) async throws {
    do {
        try await withThrowingTaskGroup { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw DatabaseConnectError(address: address.description, reason: "no answer within \(timeout)")
            }
            try await group.next()
            group.cancelAll()
        }
    } catch let error as DatabaseConnectError {
        throw error
    } catch {
        throw DatabaseConnectError(address: address.description, reason: "\(String(reflecting: error))")
    }
}
