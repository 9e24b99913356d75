import Foundation

/// The class's map as a file: GeoJSON (for map tools), CSV (for spreadsheets) or JSON lines (for
/// scripts), every location with the ten fields the API sends, dates as the API writes them.
/// Written a location at a time, so a course of any size streams out in constant memory.
public enum ExportFormat: String, CaseIterable, Sendable {
    case geojson, csv, jsonl

    /// The columns of the CSV, and the properties of GeoJSON and JSON lines, in this order.
    public static let fields = ["objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL",
                                "latitude", "longitude", "createdAt", "updatedAt"]

    /// What the file starts with. A GeoJSON file names the course whose map it is (a foreign
    /// member, `"course"`, which map tools ignore): `onthemap import` refuses to put it into another
    /// course unless told to. CSV and JSON lines stay the plain rows they have always been.
    public func header(course: CourseSlug? = nil) -> String {
        switch self {
        case .geojson: #"{"type":"FeatureCollection","# + (course.map { #""course":"\#($0.rawValue)","# } ?? "") + #""features":["#
        case .csv: Self.fields.joined(separator: ",") + "\r\n"
        case .jsonl: ""
        }
    }

    /// What it ends with.
    public var footer: String {
        switch self {
        case .geojson: "\n]}\n"
        case .csv, .jsonl: ""
        }
    }

    /// One location, `first` being the file's first (GeoJSON separates features with commas).
    public func entry(_ location: StudentLocation, first: Bool) -> String {
        switch self {
        case .geojson:
            let feature = #"{"type":"Feature","geometry":{"type":"Point","coordinates":["#
                + "\(Self.number(location.longitude)),\(Self.number(location.latitude))]},\"properties\":\(Self.json(location))}"
            return (first ? "\n" : ",\n") + feature
        case .jsonl:
            return Self.json(location) + "\n"
        case .csv:
            let cells = [location.objectId, location.uniqueKey, location.firstName, location.lastName, location.mapString,
                         location.mediaURL].map(Self.textCell)
                + [Self.number(location.latitude), Self.number(location.longitude),
                   WireTime.formatMillis(location.createdAt), WireTime.formatMillis(location.updatedAt)]
            return cells.joined(separator: ",") + "\r\n"
        }
    }

    static func json(_ location: StudentLocation) -> String {
        String(decoding: (try? encoder.encode(location)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// One encoder for every row of an export, not one per row.
    static let encoder = JSONWire.encoder()

    /// The shortest text that reads back as the same double.
    static func number(_ value: Double) -> String { "\(value)" }

    /// RFC 4180 quoting, and a leading apostrophe before text a spreadsheet would run as a formula
    /// (`=`, `+`, `-`, `@`, tab, carriage return: OWASP's CSV injection advice). The import takes
    /// it off again.
    static func textCell(_ text: String) -> String {
        var cell = text
        if let first = cell.first, formulaStarts.contains(first) { cell = "'" + cell }
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]
}
