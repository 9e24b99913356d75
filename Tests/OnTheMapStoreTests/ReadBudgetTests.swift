import Foundation
import GRDB
@testable import OnTheMapSQLite
@testable import OnTheMapStore
import SQLKit
import Testing

/// Issue 9: a read past its time budget, or whose caller has gone, is stopped inside SQLite, and
/// the connection serves the next read.
@Suite struct ReadBudgetTests {
    /// Never ends on its own: only an interrupt stops it.
    static let endless: SQLQueryString = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) AS total FROM n"

    @Test func aReadPastItsBudgetIsInterrupted() async throws {
        try await TemporaryDatabase.with { temporary in
            let database = try await temporary.open(readBudget: .milliseconds(50))
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

    @Test func aReadWhoseCallerIsCancelledIsInterrupted() async throws {
        try await TemporaryDatabase.with { temporary in
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
