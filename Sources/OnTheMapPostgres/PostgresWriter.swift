import Logging
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel
import OnTheMapStore
import PostgresKit
import PostgresNIO
import SQLKit

/// Every write as one transaction on the writers' pool: inside BEGIN … COMMIT, or, for a unit of
/// one statement that records its own events (`LocationWriteSQL`), that statement alone, prepared
/// once it repeats (`PreparedStatements`) and answered once its commit is confirmed. PostgreSQL
/// commits durably before it answers (`synchronous_commit` as the server sets it, `on` by
/// default) and does its own group commit, so unlike SQLite there is no batching here, and nothing
/// in a write transaction makes one wait for another's commit (see `TransactionOrderedIDs` and
/// `CommitAnnouncer`). A write that
/// changes locations is announced to every other instance on the database's change channel once
/// it has committed, before it is answered.
final class PostgresWriter: StoreWriter, Sendable {
    enum Source: Sendable {
        /// The writers' pool of the primary, wherever it is.
        case primary(PostgresPrimary)
        /// One connection held for a session (the migrations, under their advisory lock).
        case connection(PostgresConnection)
    }

    private struct Load {
        var running = 0
        var idle: [CheckedContinuation<Void, Never>] = []
    }

    private let source: Source
    private let changes: LocationChangeFeed
    private let announcer: CommitAnnouncer
    private let maxPending: Int
    /// How long a write waits for a connection before it is answered 503.
    private let leaseDeadline: Duration
    /// False through a pooler in transaction mode (see `PostgresReader.prepares`).
    private let prepares: Bool
    private let load = NIOLockedValueBox(Load())
    private let logger: Logger
    /// Why the pool last failed to connect, for a write that got no connection.
    private let attempts: ConnectionAttempts?
    let database: any SQLDatabase

    init(
        source: Source, changes: LocationChangeFeed, announcer: CommitAnnouncer, maxPending: Int, leaseDeadline: Duration, prepares: Bool,
        logger: Logger, eventLoop: any EventLoop, attempts: ConnectionAttempts? = nil
    ) {
        self.source = source
        self.prepares = prepares
        self.attempts = attempts
        self.leaseDeadline = leaseDeadline
        self.changes = changes
        self.announcer = announcer
        self.maxPending = maxPending
        self.logger = logger
        database = SerializingDatabase(logger: logger, eventLoop: eventLoop)
    }

    func perform<Result: Sendable>(_ unit: WriteUnit<Result>) async throws -> Result {
        guard admit() else { throw StoreError.busy }
        defer { leave() }
        let outcome = unit.recordsItsEvents ? try await alone(unit) : try await inTransaction { connection in
            var results: [[any SQLRow]] = []
            for statement in unit.statements {
                let rows = NIOLockedValueBox<[any SQLRow]>([])
                try await connection.run(statement, in: self.database, logger: self.logger) { row in rows.withLockedValue { $0.append(row) } }
                results.append(rows.withLockedValue { $0 })
            }
            let outcome = try unit.interpret(results)
            guard outcome.changes.count < TransactionOrderedIDs.perTransaction else { throw TooManyChangesInOneWrite() }
            for event in LocationEventLog.statements(for: outcome.changes, at: WallClock.system.nowMillis(), id: TransactionOrderedIDs.id(ordinal:)) {
                try await connection.run(event, in: self.database, logger: self.logger) { _ in }
            }
            return outcome
        }
        changes.publish(outcome.changes)
        if !outcome.changes.isEmpty { await announcer.announce(courses: CommitAnnouncer.courses(of: outcome.changes)) }
        return outcome.result
    }

    /// Holds PostgreSQL's advisory lock for this schema's migrations on one connection while `body`
    /// runs its writes on that connection: a second instance starting at the same moment waits,
    /// then finds the migrations applied.
    func exclusively(_ body: @Sendable (any StoreWriter) async throws -> Void) async throws {
        guard case .primary(let primary) = source else { return try await body(self) }
        // Straight to the host: a session's advisory lock cannot pass a pooler in transaction mode.
        try await primary.pools.direct.withConnection { connection in
            let lock = "hashtext('onthemap-migrations:' || current_schema())"
            try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock(\(lock))"), logger: logger)
            let session = PostgresWriter(
                source: .connection(connection), changes: changes, announcer: announcer, maxPending: maxPending, leaseDeadline: leaseDeadline,
                prepares: prepares, logger: logger, eventLoop: connection.eventLoop)
            do {
                try await body(session)
            } catch {
                _ = try? await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(lock))"), logger: logger)
                throw error
            }
            try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(lock))"), logger: logger)
        }
    }

    /// Waits until every write handed in so far has been answered.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idleNow = load.withLockedValue { load in
                if load.running == 0 { return true }
                load.idle.append(continuation)
                return false
            }
            if idleNow { continuation.resume() }
        }
    }

    /// A unit of one statement that records its own events, run on its own: the statement is its
    /// own transaction, two round trips instead of four (the second confirms the commit).
    private func alone<Result: Sendable>(_ unit: WriteUnit<Result>) async throws -> (result: Result, changes: [LocationChange.Kind]) {
        try await timed(inTransactionBlock: false) { connection in
            let rows = NIOLockedValueBox<[any SQLRow]>([])
            try await connection.run(unit.statements[0], in: self.database, prepared: self.prepares, logger: self.logger) { row in rows.withLockedValue { $0.append(row) } }
            try await connection.confirmLoneStatementCommitted(logger: self.logger)
            return try unit.interpret([rows.withLockedValue { $0 }])
        }
    }

    /// One transaction, timed for `/metrics`: the wait until it began on a connection, then the
    /// transaction through its commit.
    private func inTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await timed(inTransactionBlock: true, body)
    }

    /// `body` on a connection, inside BEGIN … COMMIT or not, timed for `/metrics`.
    private func timed<T: Sendable>(inTransactionBlock: Bool, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let metrics = DatabaseMetrics.postgresql
        let asked = ContinuousClock.now
        let began = NIOLockedValueBox(asked)
        let transaction: @Sendable (PostgresConnection) async throws -> T = { [logger] connection in
            guard inTransactionBlock else {
                began.withLockedValue { $0 = ContinuousClock.now }
                return try await body(connection)
            }
            return try await connection.withTransaction(logger: logger) { connection in
                began.withLockedValue { $0 = ContinuousClock.now }
                return try await body(connection)
            }
        }
        let result: T
        do {
            result = try await PostgresAvailability.translatingFailures {
                switch source {
                case .primary(let primary): try await primary.withConnection(\.writers, within: leaseDeadline, attempts: attempts, transaction)
                case .connection(let connection): try await transaction(connection)
                }
            }
        } catch let error as PostgresTransactionError {
            // What the write itself threw, once rolled back, is the caller's error, as on SQLite:
            // not PostgresNIO's wrapper around it.
            if let thrown = error.closureError, error.rollbackError == nil { throw thrown }
            throw error
        }
        let started = began.withLockedValue { $0 }
        metrics.waited(started - asked, role: .write)
        metrics.ran(ContinuousClock.now - started, role: .write)
        metrics.committed(writes: 1)
        return result
    }

    /// Takes a place among the writes in flight; false when too many already wait for a connection.
    private func admit() -> Bool {
        load.withLockedValue { load in
            guard load.running < maxPending else { return false }
            load.running += 1
            return true
        }
    }

    private func leave() {
        let waiters = load.withLockedValue { load -> [CheckedContinuation<Void, Never>] in
            load.running -= 1
            guard load.running == 0 else { return [] }
            defer { load.idle = [] }
            return load.idle
        }
        for waiter in waiters { waiter.resume() }
    }
}

extension PostgresConnection {
    /// Returns once the statement just run on this connection outside a transaction block has
    /// committed, or throws `StoreError.unavailable`. PostgreSQL commits such a statement at the
    /// protocol's Sync, after it has sent the statement's rows and CommandComplete, and PostgresNIO
    /// ends the rows at CommandComplete: a commit that fails afterwards (the backend terminated by
    /// a shutdown or a crash, the connection lost) would otherwise go unnoticed, and the write be
    /// acknowledged and lost. PostgresNIO sends the next query only once the previous one's
    /// ReadyForQuery has come, and fails it if an error or a closed connection came instead, so an
    /// empty query answered means the commit is done. It costs a round trip, not a statement.
    fileprivate func confirmLoneStatementCommitted(logger: Logger) async throws {
        // Asked on the connection's event loop: a query written to a channel already closed never
        // reaches PostgresNIO's handler, which fails queries on a closing connection, and would
        // wait for good.
        let answered: EventLoopFuture<Void> = eventLoop.flatSubmit {
            guard !self.isClosed else { return self.eventLoop.makeFailedFuture(ConnectionClosedBeforeCommit()) }
            return self.query(PostgresQuery(unsafeSQL: ""), logger: logger).map { _ in }
        }
        do {
            try await answered.get()
        } catch {
            // PSQLError's own description hides everything; its reflection says why.
            let why = PostgresAvailability.unavailability(of: error) ?? String(reflecting: error)
            throw StoreError.unavailable(reason: "PostgreSQL did not confirm the write's commit (\(why))")
        }
    }
}

/// The connection a lone statement ran on was closed before PostgreSQL said it had committed.
private struct ConnectionClosedBeforeCommit: Error, CustomStringConvertible {
    var description: String { "the connection closed before PostgreSQL confirmed the commit" }
}

/// Serializes statements in PostgreSQL's dialect for the writer; statements are run by `perform`.
private struct SerializingDatabase: SQLDatabase {
    let logger: Logger
    let eventLoop: any EventLoop
    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeFailedFuture(PostgresWriteOutsidePerform())
    }
}

/// One write that would record more location events than `TransactionOrderedIDs` can number.
struct TooManyChangesInOneWrite: Error, CustomStringConvertible {
    var description: String { "one write can change at most \(TransactionOrderedIDs.perTransaction - 1) locations" }
}

struct PostgresWriteOutsidePerform: Error, CustomStringConvertible {
    var description: String { "writes go through StoreWriter.perform" }
}
