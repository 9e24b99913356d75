import NIOCore
@testable import OnTheMapGeocoder
import Testing

/// The gazetteer's numbers are read from bytes, not through `Double(String)`: the same values.
@Suite struct TSVReaderTests {
    func doubles(_ fields: [String]) throws -> [Double] {
        var values: [Double] = []
        try TSVReader(bytes: ByteBuffer(string: fields.joined(separator: "\t") + "\n"))
            .forEachRow(columns: fields.count, mismatch: { _ in TSVError() }) { row in
                values = fields.indices.map { row.double($0) }
            }
        return values
    }

    struct TSVError: Error {}

    @Test func decimalsAreReadAsDoubleReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var fields = ["0", "-0", "12", "-37.8136", "144.9631", "0.00001", "-179.99999", "89.5", "1e3", "5.", ".5", "123456789012.3456"]
        for _ in 0..<2_000 {
            let places = Int.random(in: 0...7, using: &generator)
            let value = Double.random(in: -180...180, using: &generator)
            fields.append(places == 0 ? String(Int(value)) : String(format: "%.\(places)f", value))
        }
        let read = try doubles(fields)
        for (field, value) in zip(fields, read) {
            #expect(value == Double(field) ?? 0, "\(field)")
        }
    }

    @Test func notANumberIsZero() throws {
        #expect(try doubles(["", "abc", "1.2.3", "--1"]) == [0, 0, 0, 0])
    }
}
