import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// The count of visible pins that `count=1` answers from (kept by triggers, not counted per
/// request) follows statements of any size: an import's many rows in one transaction, a delete of
/// many, a pin hidden and shown again (on PostgreSQL these were once counted row by row, n²).
@Suite struct KeptCountTests {
    @Test func theKeptCountFollowsBulkInsertsDeletesAndHiding() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            func kept() async throws -> Int? { try await store.locations(LocationQuery(limit: 0, includeCount: true), in: .default).count }
            let imported = (0..<3_000).map { index in
                StudentLocation(objectId: "bulk\(index)", uniqueKey: "u\(index)", firstName: "F", lastName: "L", mapString: "Place \(index)",
                                mediaURL: "https://example.com", latitude: 1, longitude: 2, createdAt: 1_000, updatedAt: 1_000)
            }
            _ = try await store.importLocations(imported)
            #expect(try await kept() == 3_000)
            let audit = AuditEntry(at: 2_000, actorKey: nil, actorEmail: "admin@example.com", action: .hideLocation, target: "bulk1", detail: "")
            _ = try await store.setHidden(objectId: "bulk1", hiddenAt: 2_000, audit: audit)
            #expect(try await kept() == 2_999)
            // One statement deleting many, the hidden one among them (it was not counted).
            try await store.writer.run(SQLQueryString("DELETE FROM student_locations WHERE object_id < 'bulk2'"))
            let left = try await store.writer.run(SQLQueryString("SELECT COUNT(*) AS n FROM student_locations WHERE hidden_at IS NULL"))
                .first?.decode(column: "n", as: Int.self)
            #expect(try await kept() == left)
            #expect(left == 3_000 - 1 - 1_111)
            try await database.close()
        }
    }
}
