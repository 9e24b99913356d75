import OnTheMapModel
@testable import OnTheMapPostgres
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// Statements that repeat are prepared once per connection (`PreparedStatements`), and a
/// prepared plan the schema has outgrown is replaced by the unnamed statement, not an error.
@Suite struct PreparedStatementsTests {
    @Test func onlyWhatRepeatsGetsANameAndNamesAreKept() {
        let statements = PreparedStatements(limit: 2)
        #expect(statements.name(for: "SELECT 1") == nil, "the first time goes unnamed")
        let name = statements.name(for: "SELECT 1")
        #expect(name != nil)
        #expect(statements.name(for: "SELECT 1") == name)
        _ = statements.name(for: "SELECT 2")
        let second = statements.name(for: "SELECT 2")
        #expect(second != nil && second != name)
        _ = statements.name(for: "SELECT 3")
        #expect(statements.name(for: "SELECT 3") == nil, "beyond the limit statements go unnamed")
        statements.refuse("SELECT 1")
        #expect(statements.name(for: "SELECT 1") == nil)
        #expect(statements.name(for: "SELECT 1") == nil, "a refused statement stays unnamed")
    }

    @Test func aPreparedStatementOutgrownByTheSchemaStillAnswers() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            try await store.writer.run(SQLQueryString("CREATE TABLE prepared_probe (a BIGINT)"))
            try await store.writer.run(SQLQueryString("INSERT INTO prepared_probe (a) VALUES (1)"))
            let select = "SELECT * FROM prepared_probe WHERE a >= "
            for _ in 0..<8 {
                let rows = try await store.reader.raw("\(unsafeRaw: select)\(bind: 0)").all()
                #expect(rows.count == 1 && rows.first?.allColumns == ["a"])
            }
            try await store.writer.run(SQLQueryString("ALTER TABLE prepared_probe ADD COLUMN b BIGINT"))
            // (PostgreSQL only: GRDB's cached statements on SQLite keep a `SELECT *`'s old columns,
            // which the store never asks for.)
            for _ in 0..<8 where store.writesEventsInStatements {
                let rows = try await store.reader.raw("\(unsafeRaw: select)\(bind: 0)").all()
                #expect(rows.first?.allColumns == ["a", "b"])
            }
            // A statement whose preparation failed (what it names did not exist yet) works once
            // it does: PostgresNIO keeps the failed preparation's error on that connection.
            let later = "SELECT c FROM prepared_later WHERE c >= "
            for _ in 0..<3 {
                await #expect(throws: (any Error).self) { try await store.reader.raw("\(unsafeRaw: later)\(bind: 0)").all() }
            }
            try await store.writer.run(SQLQueryString("CREATE TABLE prepared_later (c BIGINT)"))
            try await store.writer.run(SQLQueryString("INSERT INTO prepared_later (c) VALUES (7)"))
            for _ in 0..<8 {
                #expect(try await store.reader.raw("\(unsafeRaw: later)\(bind: 0)").all().count == 1)
            }
            // The store's own statements, repeated, answer the same as the first time.
            let owner = try await store.newAccount("Repeat")
            try await store.pin(owner, at: "Again")
            let first = try await store.locations(LocationQuery(limit: 10), in: .default)
            for _ in 0..<8 { #expect(try await store.locations(LocationQuery(limit: 10), in: .default) == first) }
            try await database.close()
        }
    }
}
