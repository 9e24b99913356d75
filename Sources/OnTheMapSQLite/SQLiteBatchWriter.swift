import GRDB
import Logging
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel
import OnTheMapStore
import SQLKit

/// The one connection that writes, with group commit. Writes that arrive while a transaction is
/// committing wait together and go into the next one: each inside its own savepoint (a write that
/// fails rolls back alone and gets its own error), then one COMMIT, one `fsync`, for all of them.
/// Nobody is answered before that COMMIT has returned; changes are announced just before.
final class SQLiteBatchWriter: StoreWriter, Sendable {
    /// A write waiting for its batch.
    private struct PendingWrite: Sendable {
        /// Runs the write's statements on the writer connection; returns the changes to announce.
        let apply: @Sendable (Database) throws -> [LocationChange.Kind]
        /// Answers the caller: nil once committed, or the error.
        let complete: @Sendable ((any Error)?) -> Void
        /// When the write was handed in: its wait for a batch is measured from here.
        let asked = ContinuousClock.now
    }

    private struct Queue {
        var pending: [PendingWrite] = []
        var draining = false
        var held = false
        var batches = 0
        var writes = 0
        var idle: [CheckedContinuation<Void, Never>] = []
    }

    private let pool: DatabasePool
    private let changes: LocationChangeFeed
    private let maxPending: Int
    private let maxBatch: Int
    private let queue = NIOLockedValueBox(Queue())
    let database: any SQLDatabase

    init(pool: DatabasePool, changes: LocationChangeFeed, maxPending: Int, maxBatch: Int = 512, logger: Logger, eventLoop: any EventLoop) {
        self.pool = pool
        self.changes = changes
        self.maxPending = maxPending
        self.maxBatch = maxBatch
        self.database = SQLiteWriterDatabase(logger: logger, eventLoop: eventLoop)
    }

    func perform<Result: Sendable>(_ unit: WriteUnit<Result>) async throws -> Result {
        precondition(!unit.recordsItsEvents, "SQLite writes record their events in the batch (LocationWriteSQL is for PostgreSQL)")
        let statements = try unit.statements.map { try SQLiteStatement($0, in: database) }
        let result = NIOLockedValueBox<Result?>(nil)
        let events = SQLiteEventRecorder(database: database)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let write = PendingWrite(
                apply: { db in
                    let rows = try statements.map { try $0.rows(in: db) as [any SQLRow] }
                    let outcome = try unit.interpret(rows)
                    try events.record(outcome.changes, in: db)
                    result.withLockedValue { $0 = outcome.result }
                    return outcome.changes
                },
                complete: { [path = pool.path] error in
                    if let error { continuation.resume(throwing: SQLiteAvailability.translated(error, databasePath: path)) } else { continuation.resume() }
                })
            enqueue(write)
        }
        return result.withLockedValue { $0! }
    }

    /// Every write goes through the one writer; a second process migrating at the same time is
    /// caught by the migrations' own version record (see `Schema.migrate`).
    func exclusively(_ body: @Sendable (any StoreWriter) async throws -> Void) async throws {
        try await body(self)
    }

    /// Batches committed and writes answered by them, for tests and benchmarks.
    var statistics: (batches: Int, writes: Int) { queue.withLockedValue { ($0.batches, $0.writes) } }

    /// Lets writes queue without committing them until `release`: tests use it to put known writes
    /// into one batch.
    func hold() {
        queue.withLockedValue { $0.held = true }
    }

    /// Commits what queued while held, as batches.
    func release() {
        let start = queue.withLockedValue { queue -> Bool in
            queue.held = false
            guard !queue.draining, !queue.pending.isEmpty else { return false }
            queue.draining = true
            return true
        }
        if start { Task { await self.drain() } }
    }

    /// How many writes are waiting.
    var pendingCount: Int { queue.withLockedValue(\.pending.count) }

    /// Waits until every write handed in so far has been answered.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idleNow = queue.withLockedValue { queue in
                if !queue.draining { return true }
                queue.idle.append(continuation)
                return false
            }
            if idleNow { continuation.resume() }
        }
    }

    /// Queues a write, starting the drain if none runs. A full queue refuses at once rather than
    /// letting callers pile up without bound.
    private func enqueue(_ write: PendingWrite) {
        let start: Bool? = queue.withLockedValue { queue in
            guard queue.pending.count < maxPending else { return nil }
            queue.pending.append(write)
            if queue.draining || queue.held { return false }
            queue.draining = true
            return true
        }
        switch start {
        case nil: write.complete(StoreError.busy)
        case true?: Task { await self.drain() }
        case false?: break
        }
    }

    /// Commits batches until the queue is empty.
    private func drain() async {
        while let batch = nextBatch() {
            let outcomes: [Swift.Result<[LocationChange.Kind], any Error>]
            do {
                outcomes = try await pool.writeWithoutTransaction { db in try Self.measured(batch) { try Self.commit(batch, in: db) } }
            } catch {
                for write in batch { write.complete(error) }
                continue
            }
            queue.withLockedValue { queue in
                queue.batches += 1
                queue.writes += batch.count
            }
            for (write, outcome) in zip(batch, outcomes) {
                switch outcome {
                case .success(let kinds):
                    changes.publish(kinds)
                    write.complete(nil)
                case .failure(let error):
                    write.complete(error)
                }
            }
        }
    }

    /// Reports each write's wait for its batch, the batch's time through its commit, and its size.
    private static func measured<T>(_ batch: [PendingWrite], _ commit: () throws -> T) rethrows -> T {
        let started = ContinuousClock.now
        for write in batch { DatabaseMetrics.sqlite.waited(started - write.asked, role: .write) }
        let result = try commit()
        DatabaseMetrics.sqlite.ran(ContinuousClock.now - started, role: .write)
        DatabaseMetrics.sqlite.committed(writes: batch.count)
        return result
    }

    /// One transaction for the whole batch, a savepoint per write.
    private static func commit(_ batch: [PendingWrite], in db: Database) throws -> [Swift.Result<[LocationChange.Kind], any Error>] {
        var outcomes: [Swift.Result<[LocationChange.Kind], any Error>] = []
        try db.inTransaction(.immediate) {
            for write in batch {
                do {
                    var kinds: [LocationChange.Kind] = []
                    try db.inSavepoint {
                        kinds = try write.apply(db)
                        return .commit
                    }
                    outcomes.append(.success(kinds))
                } catch {
                    outcomes.append(.failure(error))
                }
            }
            return .commit
        }
        return outcomes
    }

    /// The writes waiting, oldest first, at most `maxBatch`; nil (and idle) when there are none.
    private func nextBatch() -> [PendingWrite]? {
        let (batch, idle): ([PendingWrite]?, [CheckedContinuation<Void, Never>]) = queue.withLockedValue { queue in
            guard !queue.pending.isEmpty, !queue.held else {
                queue.draining = false
                defer { queue.idle = [] }
                return (nil, queue.idle)
            }
            let batch = Array(queue.pending.prefix(maxBatch))
            queue.pending.removeFirst(batch.count)
            return (batch, [])
        }
        for waiter in idle { waiter.resume() }
        return batch
    }
}

/// Records a write's location events in its own savepoint: the event exists exactly when the
/// change does.
private struct SQLiteEventRecorder: Sendable {
    let database: any SQLDatabase

    func record(_ changes: [LocationChange.Kind], in db: Database) throws {
        for event in LocationEventLog.statements(for: changes, at: WallClock.system.nowMillis()) {
            _ = try SQLiteStatement(event, in: database).rows(in: db)
        }
    }
}

/// Serializes statements in SQLite's dialect for the writer; statements are run by `perform`.
private struct SQLiteWriterDatabase: SQLDatabase {
    let logger: Logger
    let eventLoop: any EventLoop
    var dialect: any SQLDialect { SQLiteDialect() }

    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeFailedFuture(SQLiteRowError.writeOutsidePerform)
    }
}
