import OnTheMapModel
@testable import OnTheMapSQLite
@testable import OnTheMapStore
import SQLKit
import OnTheMapTestSupport
import Testing

/// A location row reads the same by position (engines with `PositionalSQLRow`: SQLite) as by name
/// (any other SQLKit engine: PostgreSQL): the positions follow `LocationColumn`.
@Suite struct LocationRowTests {
    /// The same row with only SQLKit's by-name reading.
    struct ByName: SQLRow {
        let row: any SQLRow
        var allColumns: [String] { row.allColumns }
        func contains(column: String) -> Bool { row.contains(column: column) }
        func decodeNil(column: String) throws -> Bool { try row.decodeNil(column: column) }
        func decode<D: Decodable>(column: String, as type: D.Type) throws -> D { try row.decode(column: column, as: type) }
    }

    @Test func positionalAndByNameReadsAgree() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            try await store.pin(try await store.newAccount("Owned"), at: "Nairobi, Kenya")
            _ = try await store.saveLocation(
                CompleteLocationFields(uniqueKey: "anonymous", firstName: "No", lastName: "Owner", mapString: "Lima, Peru",
                                       mediaURL: "https://example.org", latitude: -12.05, longitude: -77.04),
                ownerKey: nil, now: 1_700_000_000_123)
            let rows = try await store.reader.raw("SELECT \(unsafeRaw: SQLStore.locationColumns) FROM student_locations").all()
            #expect(rows.count == 2)
            for row in rows {
                #expect(row is any PositionalSQLRow)
                #expect(try SQLStore.owned(from: row) == SQLStore.owned(from: ByName(row: row)))
            }
            let owners = try rows.map { try SQLStore.owned(from: $0).ownerKey }
            #expect(owners.contains(nil) && owners.contains { $0 != nil })
            try await database.close()
        }
    }
}
