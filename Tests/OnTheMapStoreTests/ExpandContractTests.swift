import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// During a rolling upgrade the first new instance migrates the database while
/// old ones still serve, so this version must keep working on a schema that a later one expanded
/// (README.md, "Upgrading without a failed request").
@Suite struct ExpandContractTests {
    @Test func thisVersionServesOnADatabaseALaterVersionExpanded() async throws {
        try await TestDatabase.withFresh { temporary in
            let old = try await temporary.open()
            let student = try await old.store.newAccount("Before")
            _ = try await old.store.pin(student, at: "Before the upgrade")
            // What a later version may add: a migration this one does not know, a column with a
            // default on the tables it reads and writes, a table of its own.
            try await old.store.writer.run(SQLQueryString(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (10000, 'a later version', 0)"))
            try await old.store.writer.run(SQLQueryString("ALTER TABLE student_locations ADD COLUMN later_field TEXT DEFAULT 'x'"))
            try await old.store.writer.run(SQLQueryString("ALTER TABLE accounts ADD COLUMN later_flag BOOLEAN DEFAULT FALSE NOT NULL"))
            try await old.store.writer.run(SQLQueryString("CREATE TABLE later_things (id INTEGER PRIMARY KEY)"))
            try await old.close()

            // Started again (an old instance restarted, or one still running): it opens, reads and writes.
            let again = try await temporary.open()
            try await again.store.waitUntilEventsAreFinal()
            let start = try await again.store.locationEventRange()?.upperBound ?? 0
            let other = try await again.store.newAccount("After")
            let moved = try await again.store.pin(student, at: "Moved after the upgrade")
            _ = try await again.store.pin(other, at: "New after the upgrade")
            let page = try await again.store.locations(LocationQuery(limit: 10, order: [SortKey(.mapString, descending: false)]), in: .default)
            #expect(page.results.map(\.mapString) == ["Moved after the upgrade", "New after the upgrade"])
            #expect(try await again.store.location(objectId: moved.objectId)?.location == moved)
            try await again.store.waitUntilEventsAreFinal()
            #expect(try await again.store.locationEvents(after: start, limit: 10).count == 2)
            try await again.close()
        }
    }
}
