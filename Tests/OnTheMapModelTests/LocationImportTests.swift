import Foundation
@testable import OnTheMapModel
import Testing

/// Reading locations back, with the API's rules and every problem placed.
@Suite struct LocationImportTests {
    @Test func csvRecordsKeepQuotedCommasQuotesAndLineBreaksAndSayWhereTheyStart() throws {
        let records = try CSVReader.records("a,b\r\n\"x, y\",\"say \"\"hi\"\"\nthere\"\r\n\r\nlast,\n")
        #expect(records == [
            CSVReader.Record(line: 1, fields: ["a", "b"]),
            CSVReader.Record(line: 2, fields: ["x, y", "say \"hi\"\nthere"]),
            CSVReader.Record(line: 5, fields: ["last", ""]),
        ])
        #expect(throws: CSVReader.Failure(line: 2, message: "a quoted field is never closed")) { try CSVReader.records("a\n\"open\n") }
        #expect(throws: CSVReader.Failure(line: 1, message: "text after a closing quote")) { try CSVReader.records("\"a\"b\n") }
    }

    @Test func anExportReadsBackAsTheSameLocations() {
        let ada = LocationExportTests.ada
        for format in ExportFormat.allCases {
            let text = format.header() + format.entry(ada, first: true) + format.footer
            let reading = LocationImport.read(Data(text.utf8), now: 0)
            #expect(reading.problems.isEmpty, "\(format)")
            #expect(reading.rows.map(\.location) == [ada], "\(format)")
        }
    }

    @Test func everyBadRowIsNamedAndNoneIsKeptQuietly() {
        let lines = [
            #"{"mapString": "Lima", "mediaURL": "https://example.com", "latitude": -12, "longitude": -77, "objectId": "same1"}"#,
            #"{"mapString": "Quito", "mediaURL": "https://example.com", "latitude": 100, "longitude": -78}"#,
            "not json",
            #"{"mapString": "Lima again", "mediaURL": "https://example.com", "latitude": -12, "longitude": -77, "objectId": "same1"}"#,
            #"{"mapString": "Cusco", "mediaURL": "https://example.com", "latitude": -13, "longitude": -72, "createdAt": "yesterday"}"#,
        ]
        let reading = LocationImport.read(Data(lines.joined(separator: "\n").utf8), now: 0)
        #expect(reading.format == "JSON lines")
        #expect(reading.problems.map(\.description) == [
            "line 2: latitude must be a number between -90 and 90.",
            "line 3: is not JSON",
            "line 4: objectId same1 appears twice in the file",
            #"line 5: createdAt must be a whole date and time with its zone, like 2015-02-24T22:27:14.456Z; "yesterday" is not."#,
        ])
    }

    /// A file cut anywhere inside its last location is refused whole, in each
    /// format, and said to be in the format it is (a cut GeoJSON is not "JSON lines").
    @Test(arguments: ExportFormat.allCases)
    func aFileCutInsideItsLastLocationIsRefusedWhole(format: ExportFormat) {
        var grace = LocationExportTests.ada
        grace.objectId = "grace00001"
        grace.updatedAt += 123_456
        let head = format.header() + format.entry(LocationExportTests.ada, first: true)
        let text = head + format.entry(grace, first: false) + format.footer
        #expect(LocationImport.read(Data(text.utf8), now: 0).rows.count == 2)
        let bytes = Array(text.utf8)
        // From just inside the last location to before the final line break (a file cut there is whole).
        let lastStart = head.utf8.count + (format == .geojson ? 2 : 0)
        let cuts = (lastStart + 1)..<(bytes.count - (format == .csv ? 2 : 1))
        #expect(cuts.count > 20)
        for cut in cuts {
            let reading = LocationImport.read(Data(bytes[..<cut]), now: 0)
            #expect(!reading.problems.isEmpty, "\(format) cut at \(cut) of \(bytes.count): \(String(decoding: bytes[(cut - 12)..<cut], as: UTF8.self))")
            if format == .geojson { #expect(reading.format == "GeoJSON") }
        }
    }

    /// A date without its zone is not a moment, and one without its seconds is most likely cut.
    @Test(arguments: ["2015-02-24T22:27:14.456", "2015-02-24T22:27:14", "2015-02-24T22:27", "2015-02-24", "2015-02-24T22:27:14.456+02"])
    func aDateWithoutItsZoneOrCutShortIsRefused(date: String) {
        let csv = "mapString,mediaURL,latitude,longitude,createdAt\r\nLima,https://example.com,-12,-77,\(date)\r\n"
        let line = #"{"mapString": "Lima", "mediaURL": "https://example.com", "latitude": -12, "longitude": -77, "createdAt": "\#(date)"}"#
        for text in [csv, line] {
            let reading = LocationImport.read(Data(text.utf8), now: 0)
            #expect(reading.rows.isEmpty && reading.problems.count == 1, "\(date) in \(reading.format)")
        }
    }

    @Test func aLastRowWithAnEmptyLastCellIsWholeWhenALineBreakEndsIt() {
        let csv = "mapString,mediaURL,latitude,longitude,createdAt\r\nLima,https://example.com,-12,-77,"
        for (ending, whole) in [("\r\n", true), ("\n", true), ("", false)] {
            let reading = LocationImport.read(Data((csv + ending).utf8), now: 0)
            #expect(reading.problems.isEmpty == whole, "ending \(ending.debugDescription)")
        }
    }

    @Test func aDateWithAnOffsetIsTheMomentItSays() throws {
        let line = #"{"mapString": "Lima", "mediaURL": "https://example.com", "latitude": -12, "longitude": -77, "createdAt": "2015-02-24T17:27:14.456-05:00"}"#
        let reading = LocationImport.read(Data(line.utf8), now: 0)
        #expect(try #require(reading.rows.first).location.createdAt == WireTime.parseMillis("2015-02-24T22:27:14.456Z"))
    }

    @Test func aGeoJSONFeatureIsWhereItsPointIs() throws {
        let text = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}, "#
            + #""properties": {"mapString": "Paris", "mediaURL": "example.com", "latitude": 0, "longitude": 0}}]}"#
        let reading = LocationImport.read(Data(text.utf8), now: 1_000)
        let location = try #require(reading.rows.first?.location)
        #expect((location.latitude, location.longitude) == (48.85, 2.35))
        #expect(location.mediaURL == "https://example.com")
        #expect(location.createdAt == 1_000 && location.objectId.count == 10)
    }

    @Test func theDefusingApostropheComesOffOnlyBeforeAFormula() {
        #expect(LocationImport.undefused("'=SUM(A1)") == "=SUM(A1)")
        #expect(LocationImport.undefused("'Twas") == "'Twas")
        #expect(LocationImport.undefused("'") == "'")
    }

    @Test func aGeoJSONExportSaysWhoseMapItIs() {
        let format = ExportFormat.geojson
        let named = format.header(course: CourseSlug(rawValue: "cs101")) + format.entry(LocationExportTests.ada, first: true) + format.footer
        #expect(LocationImport.read(Data(named.utf8), now: 0).course == "cs101")
        let unnamed = format.header() + format.entry(LocationExportTests.ada, first: true) + format.footer
        #expect(LocationImport.read(Data(unnamed.utf8), now: 0).course == nil)
        let odd = named.replacingOccurrences(of: #""course":"cs101""#, with: #""course":"CS 101""#)
        let reading = LocationImport.read(Data(odd.utf8), now: 0)
        #expect(reading.problems.map(\.message) == [#"names the course "CS 101", which is not a course's address"#])
    }
}
