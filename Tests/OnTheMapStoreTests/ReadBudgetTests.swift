import Foundation
import GRDB
@testable import OnTheMapSQLite
@testable import OnTheMapStore
import SQLKit
import OnTheMapTestSupport
import Testing

/// A read past its time budget, or whose caller has gone, is stopped inside SQLite, and
/// the connection serves the next read.
@Suite struct ReadBudgetTests {
    /// Never ends on its own: only an interrupt stops it.
    static let endless: SQLQueryString = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) AS total FROM n"
    static var onSQLite: Bool { TestEngine.current == .sqlite }

    @Test(.enabled(if: onSQLite)) func aReadPastItsBudgetIsInterrupted() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open(readBudget: .milliseconds(50)) as! SQLiteDatabaseFile
            await #expect(throws: StoreError.readTimedOut) {
                try await database.store.reader.raw(Self.endless).first()
            }
            // Every reader connection is usable again (asked directly: on a machine busy with a
            // hundred tests, a 50 ms budget could stop these too).
            try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<8 { group.addTask { try await database.pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } } }
                for try await one in group { #expect(one == 1) }
            }
            try await database.close()
        }
    }

    /// PostgreSQL stops the read itself (`statement_timeout` on every reader connection) and the
    /// pool's connections serve the next reads. The budget leaves a `SELECT 1` room on a server
    /// whose two cores are busy with every other suite at once.
    @Test(.enabled(if: !onSQLite)) func aReadPastItsBudgetIsCancelledByPostgreSQL() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open(readBudget: .milliseconds(500))
            await #expect(throws: StoreError.readTimedOut) {
                try await database.store.reader.raw("SELECT pg_sleep(600) IS NULL AS slept").first()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { try await database.store.ping() } }
                try await group.waitForAll()
            }
            try await database.close()
        }
    }

    /// SQLite only: PostgresNIO does not cancel a query whose task is cancelled, so on PostgreSQL
    /// the read budget is what bounds it.
    @Test(.enabled(if: onSQLite)) func aReadWhoseCallerIsCancelledIsInterrupted() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open(readBudget: .seconds(600))
            let read = Task { try await database.store.reader.raw(Self.endless).first() }
            try await Task.sleep(for: .milliseconds(50))
            read.cancel()
            await #expect(throws: CancellationError.self) { try await read.value }
            try await database.store.ping()
            try await database.close()
        }
    }
}
