@testable import OnTheMapGeocoder
import Testing

/// The packed postcode table: keys in the order `make geodata` sorts its rows, codes written back as
/// the country writes them, lookups whatever the case and spacing typed.
@Suite struct PostcodeTableTests {
    /// Rows as postcodes.py orders them: country, then the code's letters and digits as text.
    static let rows: [(country: String, code: String, place: String)] = [
        ("BR", "01000-000", "São Paulo"), ("BR", "20000-000", "Rio de Janeiro"),
        ("GB", "SW1", "Pimlico"), ("GB", "SW10", "Chelsea"), ("GB", "SW1A", "Westminster Abbey"), ("GB", "SW1E", "London"),
        ("JP", "530-0001", "Umeda"), ("SE", "110 00", "Stockholm"), ("US", "00501", "Holtsville"), ("US", "94043", "Mountain View"),
    ]

    /// A latitude as `make geodata` writes them: read back exactly, not as the nearest Float.
    static func latitude(_ index: Int) -> Double {
        [48.8592, -37.814, 51.5018, 34.6995, -23.627, 0.00001, -89.99999, 45.4207, 18.4654, 37.38605][index]
    }

    func table(_ rows: [(country: String, code: String, place: String)] = rows) throws -> PostcodeTable {
        var builder = PostcodeTable.Builder()
        for (index, row) in rows.enumerated() {
            try Array(row.code.utf8).withUnsafeBufferPointer { code in
                try Array(row.place.utf8).withUnsafeBufferPointer { place in
                    try builder.add(country: row.country, code: code, latitude: Self.latitude(index), longitude: -Double(index),
                                    place: place, region: nil, estimated: index.isMultiple(of: 2))
                }
            }
        }
        return builder.build()
    }

    @Test func everyRowIsFoundAsWrittenAndAsTyped() throws {
        let table = try table()
        for (index, row) in Self.rows.enumerated() {
            for typed in [row.code, row.code.lowercased(), row.code.filter { $0 != " " && $0 != "-" }] {
                let location = try #require(table.location(country: row.country, code: Array(typed.utf8)), "\(typed)")
                let entry = table.entry(location)
                #expect(entry.code == row.code && entry.place == row.place && location.latitude == Self.latitude(index))
                #expect(location.estimated == index.isMultiple(of: 2) && location.country == row.country)
            }
        }
        #expect(table.location(country: "FR", code: Array("94043".utf8)) == nil)
        #expect(table.location(country: "GB", code: Array("SW1B".utf8)) == nil)
        #expect(table.countries == ["BR", "GB", "JP", "SE", "US"])
    }

    @Test func aTypedCodeFindsTheAreaTheDataLists() throws {
        let table = try table()
        let outward = try #require(table.find(Array("sw1a2aa".utf8), in: "GB"))
        #expect(table.entry(outward).code == "SW1A")
        let shorter = try #require(table.find(Array("sw1b2aa".utf8), in: "GB"))   // no SW1B: SW1
        #expect(table.entry(shorter).code == "SW1")
        #expect(table.find(Array("sw99aa".utf8), in: "GB") == nil)
        #expect(table.find(Array("5300001".utf8), in: "US") == nil)
    }

    @Test func aCodeBelowFindsItsAreaOnly() throws {
        let table = try table()
        let below = try #require(table.location(country: "BR", atOrBelow: Array("01310100".utf8), samePrefix: 2))
        #expect(table.entry(below).code == "01000-000")
        #expect(table.location(country: "BR", atOrBelow: Array("19999999".utf8), samePrefix: 2) == nil)
        #expect(table.location(country: "BR", atOrBelow: Array("00100000".utf8), samePrefix: 2) == nil)
        // Never into the country before it in the table.
        #expect(table.location(country: "GB", atOrBelow: Array("AA1".utf8), samePrefix: 0) == nil)
    }

    @Test func rowsOutOfOrderAreRefused() {
        var rows = Self.rows
        rows.swapAt(3, 4)   // SW1A before SW10: "sw10" < "sw1a" as text, digits before letters
        #expect(throws: PostcodeTable.Builder.Failure.self) { try table(rows) }
        #expect(throws: PostcodeTable.Builder.Failure.self) { try table([("GB", "SW1 2", "x"), ("GB", "SW1-", "y")]) }
        #expect(throws: PostcodeTable.Builder.Failure.self) { try table([("US", "94043", "x"), ("US", "94043", "y")]) }
    }
}
