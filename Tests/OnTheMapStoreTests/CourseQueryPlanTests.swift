import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// Every list query docs/API.md calls indexed ("Limits on queries": the default order, each order
/// key, equality and `$in` on uniqueKey and objectId) reads a course's first page from an index,
/// on a database that holds two courses: a page never walks or sorts the other courses' pins, and
/// naming pins by key is not turned into a walk of the whole course. SQLite is asked without
/// statistics, as a new database is; PostgreSQL after `ANALYZE`, as autovacuum leaves it.
@Suite struct CourseQueryPlanTests {
    static let perCourse = 4_000

    static let ordered: [(String, LocationQuery)] = [
        ("default order", LocationQuery(limit: 100)),
        ("-updatedAt", LocationQuery(limit: 100, order: [SortKey(.updatedAt, descending: true)])),
        ("createdAt", LocationQuery(limit: 100, order: [SortKey(.createdAt, descending: false)])),
        ("lastName", LocationQuery(limit: 100, order: [SortKey(.lastName, descending: false)])),
        ("firstName", LocationQuery(limit: 100, order: [SortKey(.firstName, descending: false)])),
        ("objectId", LocationQuery(limit: 100, order: [SortKey(.objectId, descending: false)])),
        ("a later page", LocationQuery(limit: 100, skip: 500)),
    ]
    static let named: [(String, LocationQuery)] = [
        ("uniqueKey =", LocationQuery(limit: 100, filter: .compare(.uniqueKey, .equal, .text("u17")))),
        ("uniqueKey $in", LocationQuery(limit: 100, filter: .oneOf(.uniqueKey, [.text("u17"), .text("u18")], negated: false))),
        ("objectId =", LocationQuery(limit: 100, filter: .compare(.objectId, .equal, .text("mine-17")))),
        ("objectId $in", LocationQuery(limit: 100, filter: .oneOf(.objectId, [.text("mine-17"), .text("other-18")], negated: false))),
    ]

    @Test func everyIndexedListQueryOfACourseReadsAnIndex() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let other = try await store.newCourse("cs101")
            // The other course's pins first (imported into the default course, then moved), then the default course's.
            for course in ["other", "mine"] {
                let pins = (0..<Self.perCourse).map { index in
                    StudentLocation(objectId: "\(course)-\(index)", uniqueKey: "u\(index)", firstName: "F\(index % 97)", lastName: "L\(index % 89)",
                                    mapString: "Place \(index)", mediaURL: "https://example.com", latitude: 1, longitude: 2,
                                    createdAt: Int64(index), updatedAt: Int64(index))
                }
                _ = try await store.importLocations(pins)
                if course == "other" { try await store.writer.run(SQLQueryString("UPDATE student_locations SET course_id = \(bind: other.rawValue)")) }
            }
            if temporary.engine == .postgres { try await store.writer.run(SQLQueryString("ANALYZE student_locations")) }

            for (name, query) in Self.ordered {
                let plan = try await self.plan(of: store.listQuery(query, in: .default), in: store, engine: temporary.engine)
                #expect(readsAnIndexInOrder(plan, engine: temporary.engine), "\(name): \(plan)")
            }
            for (name, query) in Self.named {
                let plan = try await self.plan(of: store.listQuery(query, in: .default), in: store, engine: temporary.engine)
                #expect(readsTheKeysIndex(plan, engine: temporary.engine), "\(name): \(plan)")
            }
            // And they answer from the course asked for only.
            let page = try await store.locations(LocationQuery(limit: 100, filter: .oneOf(.uniqueKey, [.text("u17")], negated: false)), in: .default)
            #expect(page.results.map(\.objectId) == ["mine-17"])
            try await database.close()
        }
    }

    private func plan(of query: any SQLExpression, in store: SQLStore, engine: TestEngine) async throws -> String {
        let explain = engine == .sqlite ? "EXPLAIN QUERY PLAN " : "EXPLAIN "
        let rows = try await store.writer.run(SQLList([SQLRaw(explain), query], separator: SQLRaw("")))
        return try rows.map { row in
            try row.decode(column: engine == .sqlite ? "detail" : "QUERY PLAN", as: String.self)
        }.joined(separator: " | ")
    }

    /// An index of the course's pins, walked in the page's order: nothing sorted, no table scanned.
    private func readsAnIndexInOrder(_ plan: String, engine: TestEngine) -> Bool {
        switch engine {
        case .sqlite: plan.contains("USING INDEX student_locations_") && plan.contains("course_id=?") && !plan.contains("TEMP B-TREE")
        case .postgres: plan.contains("Index Scan using student_locations_") && !plan.contains("Sort") && !plan.contains("Seq Scan")
        }
    }

    /// The index of the key named, not a walk of the course.
    private func readsTheKeysIndex(_ plan: String, engine: TestEngine) -> Bool {
        switch engine {
        case .sqlite: plan.contains("unique_key=?") || plan.contains("object_id=?")
        case .postgres: (plan.contains("student_locations_by_unique_key") || plan.contains("student_locations_pkey")) && !plan.contains("Seq Scan")
        }
    }
}
