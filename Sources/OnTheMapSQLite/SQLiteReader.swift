import GRDB
import Logging
import NIOCore
import OnTheMapStore
import SQLKit

/// Reads on GRDB's pool of read-only connections: in WAL mode they never wait for the writer. Each
/// statement has a time budget; past it, or when the asking task is cancelled (its client went
/// away), GRDB interrupts the query with `sqlite3_interrupt` and the connection is free again.
struct SQLiteReader: SQLDatabase {
    let pool: DatabasePool
    let budget: Duration
    let logger: Logger
    let eventLoop: any EventLoop

    var dialect: any SQLDialect { SQLiteDialect() }

    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        let statement = try SQLiteStatement(query, in: self)
        let rows = try await withTimeBudget(budget) { [pool] in
            try await pool.read { db in try statement.rows(in: db) }
        }
        rows.forEach(onRow)
    }
}

/// Runs `operation`, cancelling it when `budget` has passed: the caller then gets
/// `StoreError.readTimedOut`, and a cancelled caller a `CancellationError`.
func withTimeBudget<T: Sendable>(_ budget: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: budget)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw StoreError.readTimedOut }
        return value
    }
}
