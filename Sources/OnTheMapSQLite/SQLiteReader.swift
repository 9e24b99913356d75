#if canImport(Glibc)
import Glibc
#endif
import GRDB
import GRDBSQLite
import Logging
import NIOCore
import OnTheMapStore
import SQLKit

/// Reads on GRDB's pool of read-only connections: in WAL mode they never wait for the writer. Each
/// statement has a time budget, kept by SQLite itself (`ReadDeadline`); when the asking task is
/// cancelled (its client went away), GRDB interrupts the query with `sqlite3_interrupt`. Either way
/// the connection is free again at once.
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
        let asked = ContinuousClock.now
        let rows: [SQLiteRow]
        do {
            rows = try await pool.read { [budget] db in
                try DatabaseMetrics.sqlite.measure(role: .read, since: asked) {
                    try ReadDeadline.run(on: db, within: budget) { try statement.rows(in: db) }
                }
            }
        } catch {
            throw SQLiteAvailability.translated(error, databasePath: pool.path)
        }
        rows.forEach(onRow)
    }
}

/// A read's time budget, enforced inside SQLite: a progress handler, called every thousand virtual
/// machine steps, ends the statement once the deadline has passed, and the caller gets
/// `StoreError.readTimedOut`. No timer or extra task per read: a read that finishes in time costs
/// a clock read per thousand steps.
enum ReadDeadline {
    static func run<T>(on db: Database, within budget: Duration, _ body: () throws -> T) throws -> T {
        let nanoseconds = UInt64(budget.components.seconds) * 1_000_000_000 + UInt64(budget.components.attoseconds / 1_000_000_000)
        var deadline = monotonicNanoseconds() + nanoseconds
        return try withUnsafeMutablePointer(to: &deadline) { deadline in
            sqlite3_progress_handler(db.sqliteConnection, 1000, { context in
                monotonicNanoseconds() > context!.load(as: UInt64.self) ? 1 : 0
            }, deadline)
            defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && monotonicNanoseconds() > deadline.pointee {
                throw StoreError.readTimedOut
            }
        }
    }
}

private func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
