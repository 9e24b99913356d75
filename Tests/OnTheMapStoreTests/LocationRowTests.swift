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
                ownerKey: nil, in: .default, now: 1_700_000_000_123)
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

    /// Every type the store reads, on each engine's row: by name as itself and as an optional, by
    /// position, NULLs, and a column asked for as a type it is not. On PostgreSQL this
    /// covers both roads of `PostgresReadRow` (cells read from their bytes as the row arrives, and
    /// cells handed back to PostgresNIO when asked for as anything else).
    @Test func everyTypeTheStoreReadsReadsTheSameOnEveryRoad() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let rows = try await database.store.reader.raw("""
                SELECT CAST('Zoë' AS TEXT) AS text, CAST('é"' AS VARCHAR(8)) AS varchar, CAST(7 AS SMALLINT) AS small,
                       CAST(-42 AS INTEGER) AS integer, CAST(9007199254740993 AS BIGINT) AS big, CAST(-1.5 AS DOUBLE PRECISION) AS double,
                       CAST(NULL AS TEXT) AS no_text, CAST(NULL AS BIGINT) AS no_big
                """).all()
            let row = try #require(rows.first)
            #expect(try row.decode(column: "text", as: String.self) == "Zoë")
            #expect(try row.decode(column: "varchar", as: String.self) == "é\"")
            #expect(try row.decode(column: "small", as: Int.self) == 7)
            #expect(try row.decode(column: "integer", as: Int64.self) == -42)
            #expect(try row.decode(column: "big", as: Int64.self) == 9_007_199_254_740_993)
            #expect(try row.decode(column: "double", as: Double.self) == -1.5)
            #expect(try row.decode(column: "text", as: String?.self) == "Zoë")
            #expect(try row.decode(column: "big", as: Int64?.self) == 9_007_199_254_740_993)
            #expect(try row.decode(column: "small", as: Int?.self) == 7)
            #expect(try row.decode(column: "no_text", as: String?.self) == nil)
            #expect(try row.decode(column: "no_big", as: Int64?.self) == nil)
            #expect(try row.decodeNil(column: "no_big") && !(try row.decodeNil(column: "big")))
            #expect(throws: (any Error).self) { try row.decode(column: "no_big", as: Int64.self) }
            #expect(throws: (any Error).self) { try row.decode(column: "missing", as: String.self) }
            let positional = try #require(row as? any PositionalSQLRow)
            #expect(positional.columnNames == ["text", "varchar", "small", "integer", "big", "double", "no_text", "no_big"])
            #expect(try positional.string(at: 0) == "Zoë" && positional.string(at: 1) == "é\"")
            #expect(try positional.int64(at: 2) == 7 && positional.int64(at: 3) == -42 && positional.int64(at: 4) == 9_007_199_254_740_993)
            #expect(try positional.double(at: 5) == -1.5)
            #expect(positional.isNull(at: 6) && positional.isNull(at: 7) && !positional.isNull(at: 0) && positional.isNull(at: 8))
            if database.store.writesEventsInStatements {
                // PostgreSQL's types are strict: a text is not read as a number.
                #expect(throws: (any Error).self) { try row.decode(column: "text", as: Int64.self) }
                #expect(throws: (any Error).self) { try row.decode(column: "double", as: Int64.self) }
            }
            try await database.close()
        }
    }
}
