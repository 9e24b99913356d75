import Foundation
@testable import OnTheMapModel
import Testing

/// The export formats, exactly.
@Suite struct LocationExportTests {
    static let ada = StudentLocation(
        objectId: "abc123", uniqueKey: "u1", firstName: "Ada", lastName: "King, \"Lovelace\"", mapString: "=London\nUK",
        mediaURL: "https://example.com/ada", latitude: 51.5, longitude: -0.125, createdAt: 1_700_000_000_123, updatedAt: 1_700_000_000_456)

    @Test func csvQuotesAsRFC4180AndDefusesFormulas() {
        let row = ExportFormat.csv.entry(Self.ada, first: true)
        #expect(row == "abc123,u1,Ada,\"King, \"\"Lovelace\"\"\",\"'=London\nUK\",https://example.com/ada,51.5,-0.125,"
            + "2023-11-14T22:13:20.123Z,2023-11-14T22:13:20.456Z\r\n")
        #expect(ExportFormat.csv.header() == "objectId,uniqueKey,firstName,lastName,mapString,mediaURL,latitude,longitude,createdAt,updatedAt\r\n")
        for start in ["+1", "-1", "@x", "\tx"] { #expect(ExportFormat.textCell(start) == "'" + start) }
        #expect(ExportFormat.textCell("Seattle, WA") == "\"Seattle, WA\"")
        #expect(ExportFormat.textCell("Paris") == "Paris")
    }

    @Test func geoJSONIsAFeatureCollectionOfPoints() throws {
        let text = ExportFormat.geojson.header(course: CourseSlug(rawValue: "cs101")) + ExportFormat.geojson.entry(Self.ada, first: true)
            + ExportFormat.geojson.entry(Self.ada, first: false) + ExportFormat.geojson.footer
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["type"] as? String == "FeatureCollection")
        #expect(document["course"] as? String == "cs101", "the map's course, for the import to check")
        #expect(!ExportFormat.geojson.header().contains("course"))
        let features = try #require(document["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let geometry = try #require(features[0]["geometry"] as? [String: Any])
        #expect(geometry["coordinates"] as? [Double] == [-0.125, 51.5])
        let properties = try #require(features[0]["properties"] as? [String: Any])
        #expect(properties["mapString"] as? String == "=London\nUK")
        #expect(properties["createdAt"] as? String == "2023-11-14T22:13:20.123Z")
    }

    @Test func jsonLinesAreTheAPIObjectsOneALine() throws {
        let line = ExportFormat.jsonl.entry(Self.ada, first: true)
        #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(ExportFormat.fields))
        #expect(object["mediaURL"] as? String == "https://example.com/ada")
    }

    /// The roster: every field but the password hash; CSV defused like the map's.
    @Test func accountsAreWrittenWithoutTheirPasswordHash() throws {
        let account = Account(key: "3903878747", email: "ada@example.com", firstName: "=Ada", lastName: "King, \"Lovelace\"",
                              passwordHash: "$otm1$$2b$12$secret", isAdmin: true, createdAt: 1_700_000_000_123, disabledAt: 5)
        #expect(ExportFormat.csv.accountHeader == "key,email,firstName,lastName,isAdmin,disabled,hasPassword,signInProviders,createdAt,lastLoginAt\r\n")
        #expect(ExportFormat.csv.accountEntry(account, providers: ["school", "gitlab"])
            == "3903878747,ada@example.com,'=Ada,\"King, \"\"Lovelace\"\"\",true,true,true,school gitlab,2023-11-14T22:13:20.123Z,\r\n")
        let line = ExportFormat.jsonl.accountEntry(account, providers: [])
        #expect(!line.contains("secret") && line.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(ExportFormat.accountFields))
        #expect(object["lastLoginAt"] is NSNull)
        #expect(object["signInProviders"] as? [String] == [])
        #expect(!ExportFormat.geojson.holdsAccounts)
    }
}
