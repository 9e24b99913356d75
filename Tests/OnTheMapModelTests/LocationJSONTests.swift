import Foundation
@testable import OnTheMapModel
import Testing

/// The hand-written page encoder writes exactly JSONEncoder's bytes (with the
/// settings every answer uses), on edge cases and on thousands of random locations.
@Suite struct LocationJSONTests {
    /// What the server wrote before `LocationJSON`, and still writes for every other answer.
    static func reference(_ results: [StudentLocation], count: Int?) throws -> [UInt8] {
        struct Body: Encodable {
            let results: [StudentLocation]
            let count: Int?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return Array(try encoder.encode(Body(results: results, count: count)))
    }

    static func location(_ text: String, latitude: Double, longitude: Double, millis: Int64) -> StudentLocation {
        StudentLocation(objectId: "obj" + text.prefix(3), uniqueKey: text, firstName: text, lastName: String(text.reversed()),
                        mapString: text + " ", mediaURL: "https://example.com/" + text, latitude: latitude, longitude: longitude,
                        createdAt: millis, updatedAt: millis + 1)
    }

    @Test(arguments: [
        "", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}",
        "Zürich, ΑΘΗΝΑ, 東京, القاهرة, 😀👩🏽‍🎓", "line\u{2028}separator\u{2029}", "e\u{301} combining", "\u{FEFF}bom",
    ])
    func edgeCaseStrings(text: String) throws {
        let page = [Self.location(text, latitude: 47.6, longitude: -122.33, millis: 1_424_826_638_103)]
        #expect(LocationJSON.page(page, count: nil) == (try Self.reference(page, count: nil)))
    }

    @Test(arguments: [0.0, -0.0, 1, -1, 90, -90, 180, -180, 1e-7, -1e-7, 5e-324, 0.1, 1e16, 1e15, 12.345678901234567, -33.8688])
    func edgeCaseNumbers(value: Double) throws {
        let page = [Self.location("n", latitude: value, longitude: -value, millis: 0)]
        #expect(LocationJSON.page(page, count: 1) == (try Self.reference(page, count: 1)))
    }

    @Test func emptyPagesWithAndWithoutCount() throws {
        for count in [nil, 0, 123_456] as [Int?] {
            #expect(LocationJSON.page([], count: count) == (try Self.reference([], count: count)))
        }
    }

    @Test func randomPages() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = (0..<0x80).compactMap(Unicode.Scalar.init) + ["é", "ß", "Ж", "東", "😀", "\u{301}", "\u{2028}", "\u{FFFD}"]
        for round in 0..<200 {
            let page = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                let text = String(String.UnicodeScalarView((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
                return Self.location(text, latitude: Double.random(in: -90...90, using: &generator),
                                     longitude: Double.random(in: -180...180, using: &generator),
                                     millis: Int64.random(in: -62_135_596_800_000...253_402_300_799_000, using: &generator))
            }
            let count: Int? = round.isMultiple(of: 2) ? nil : page.count
            #expect(LocationJSON.page(page, count: count) == (try Self.reference(page, count: count)), "round \(round)")
        }
    }

    /// The three parts PostgreSQL fills in around an overwrite's kept createdAt and objectId put
    /// back together with them are the whole object.
    @Test(arguments: ["", "plain", "quote \" backslash \\", "controls \u{1}\u{1F}", "Zürich 東京 😀"])
    func theObjectAroundItsCreatedAtAndObjectIdIsTheObject(text: String) {
        let location = Self.location(text, latitude: -33.8688, longitude: 151.2093, millis: -62_135_596_800_001)
        let (beforeCreatedAt, beforeObjectId, afterObjectId) = LocationJSON.objectAround(createdAtAndObjectIdOf: location)
        let joined = beforeCreatedAt + WireTime.formatMillis(location.createdAt) + beforeObjectId + LocationJSON.quoted(location.objectId) + afterObjectId
        #expect(joined == LocationJSON.object(location))
    }
}
