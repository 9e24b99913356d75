import Foundation

/// Reads locations from a file made by `onthemap export` (GeoJSON, CSV, JSON lines) or by Parse
/// (`{"results": […]}`), and checks every one with the API's own rules (LocationFields.parse and
/// requireComplete). Nothing is half-read: the caller gets every row that passed and every problem,
/// each placed by line (CSV, JSON lines) or by position in the file's array (GeoJSON, Parse).
public enum LocationImport {
    public struct Row: Sendable, Equatable {
        /// Where it is in the file: "line 4", "feature 2", "result 7".
        public let place: String
        public let location: StudentLocation
    }

    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let place: String
        public let message: String
        public var description: String { "\(place): \(message)" }
    }

    public struct Reading: Sendable {
        public let format: String
        public let rows: [Row]
        public let problems: [Problem]
        /// The course a GeoJSON export names as the map it is (`ExportFormat.header(course:)`);
        /// nil for a file that names none.
        public var course: String? = nil
    }

    /// Every location in `data`; `now` dates those the file leaves undated.
    public static func read(_ data: Data, now: Int64) -> Reading {
        guard let text = String(data: data, encoding: .utf8) else {
            return Reading(format: "unknown", rows: [], problems: [Problem(place: "the file", message: "is not UTF-8 text")])
        }
        let trimmed = text.drop { $0.isWhitespace || $0 == "\u{feff}" }
        let records: [(place: String, value: Result<JSONValue, Problem>)]
        let format: String
        var course: String?
        if trimmed.first == "{", let document = JSONValue.parse(Array(trimmed.utf8)), let members = document.object,
           members["type"] == .string("FeatureCollection") || members["results"] != nil {
            (format, records) = members["results"] != nil ? ("Parse export", parseResults(members)) : ("GeoJSON", features(members))
            if case .string(let named)? = members["course"] { course = named }
        } else if trimmed.first == "{", let firstLine = trimmed.split(separator: "\n", maxSplits: 1).first,
                  JSONValue.parse(Array(firstLine.utf8))?.object != nil {
            (format, records) = ("JSON lines", jsonLines(text))
        } else if trimmed.first == "{" || trimmed.first == "[" {
            // One JSON document that does not parse: most likely cut short.
            format = trimmed.contains("\"FeatureCollection\"") ? "GeoJSON" : trimmed.contains("\"results\"") ? "Parse export" : "JSON"
            records = [("the file", .failure(Problem(place: "the file", message: "is not complete JSON (cut short, or damaged)")))]
        } else {
            (format, records) = ("CSV", csvRows(text))
        }
        var rows: [Row] = []
        var problems: [Problem] = []
        var seen: Set<String> = []
        for (place, value) in records {
            switch value.flatMap({ location(from: $0, place: place, now: now) }) {
            case .success(let location):
                if !seen.insert(location.objectId).inserted {
                    problems.append(Problem(place: place, message: "objectId \(location.objectId) appears twice in the file"))
                } else {
                    rows.append(Row(place: place, location: location))
                }
            case .failure(let problem):
                problems.append(problem)
            }
        }
        if records.isEmpty, problems.isEmpty { problems.append(Problem(place: "the file", message: "holds no locations")) }
        if let course, CourseSlug(rawValue: course) == nil {
            problems.append(Problem(place: "the file", message: "names the course \"\(course)\", which is not a course's address"))
        }
        return Reading(format: format, rows: rows, problems: problems, course: course)
    }

    /// One record checked: the API's rules for the fields, plus the stored ones an export carries.
    static func location(from value: JSONValue, place: String, now: Int64) -> Result<StudentLocation, Problem> {
        guard let members = value.object else { return .failure(Problem(place: place, message: "is not an object")) }
        do throws(APIError) {
            let fields = try LocationFields.parse(value).requireComplete()
            let objectId = try identifier(members["objectId"])
            let createdAt = try time(members["createdAt"], "createdAt") ?? now
            let updatedAt = try time(members["updatedAt"], "updatedAt") ?? createdAt
            return .success(StudentLocation(
                objectId: objectId ?? Identifiers.objectId(), uniqueKey: fields.uniqueKey, firstName: fields.firstName,
                lastName: fields.lastName, mapString: fields.mapString, mediaURL: fields.mediaURL,
                latitude: fields.latitude, longitude: fields.longitude, createdAt: createdAt, updatedAt: max(updatedAt, createdAt)))
        } catch {
            return .failure(Problem(place: place, message: error.message))
        }
    }

    /// An objectId kept from the file: letters and digits, at most 32; absent or empty gets a new one.
    static func identifier(_ value: JSONValue?) throws(APIError) -> String? {
        switch value {
        case nil, .null: return nil
        case .string(let text) where text.isEmpty: return nil
        case .string(let text) where text.count <= 32 && text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }): return text
        case .string: throw .validation("objectId", "objectId must be up to 32 letters and digits.")
        default: throw .incorrectType("objectId", expected: "a string")
        }
    }

    /// A date as the API writes it (2015-02-24T22:27:14.456Z), whole and with its zone; Parse's
    /// {"__type": "Date", "iso": …} too.
    static func time(_ value: JSONValue?, _ field: String) throws(APIError) -> Int64? {
        switch value {
        case nil, .null: return nil
        case .string(let text) where text.isEmpty: return nil
        case .string(let text):
            guard let millis = WireTime.parseZonedMillis(text) else {
                throw .validation(field, "\(field) must be a whole date and time with its zone, like 2015-02-24T22:27:14.456Z; \"\(text)\" is not.")
            }
            return millis
        case .object(let members):
            return try time(members["iso"], field)
        default:
            throw .incorrectType(field, expected: "a date string")
        }
    }

    static func features(_ members: [String: JSONValue]) -> [(place: String, value: Result<JSONValue, Problem>)] {
        guard case .array(let features)? = members["features"] else {
            return [("the file", .failure(Problem(place: "the file", message: "a FeatureCollection needs a features array")))]
        }
        return features.enumerated().map { index, feature in
            let place = "feature \(index + 1)"
            guard var properties = feature.object?["properties"]?.object else {
                return (place, .failure(Problem(place: place, message: "has no properties object")))
            }
            // The point is where the feature is: its coordinates win over the properties.
            if case .array(let coordinates)? = feature.object?["geometry"]?.object?["coordinates"], coordinates.count >= 2 {
                properties["longitude"] = coordinates[0]
                properties["latitude"] = coordinates[1]
            }
            return (place, .success(.object(properties)))
        }
    }

    static func parseResults(_ members: [String: JSONValue]) -> [(place: String, value: Result<JSONValue, Problem>)] {
        guard case .array(let results)? = members["results"] else {
            return [("the file", .failure(Problem(place: "the file", message: "results must be an array")))]
        }
        return results.enumerated().map { index, result in ("result \(index + 1)", .success(result)) }
    }

    static func jsonLines(_ text: String) -> [(place: String, value: Result<JSONValue, Problem>)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let place = "line \(index + 1)"
            guard !line.allSatisfy(\.isWhitespace) else { return nil }
            guard let value = JSONValue.parse(Array(line.utf8)) else { return (place, .failure(Problem(place: place, message: "is not JSON"))) }
            return (place, .success(value))
        }
    }

    static func csvRows(_ text: String) -> [(place: String, value: Result<JSONValue, Problem>)] {
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(text)
        } catch {
            return [("line \(error.line)", .failure(Problem(place: "line \(error.line)", message: "is not valid CSV: \(error.message)")))]
        }
        guard let header = records.first else { return [] }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        // A file cut just after a comma leaves a last row that reads whole with an empty last
        // cell; an export never ends that way (every row ends with a line break).
        if let last = records.last, records.count > 1, last.fields.last?.isEmpty == true,
           text.utf8.last != UInt8(ascii: "\n"), text.utf8.last != UInt8(ascii: "\r") {
            let place = "line \(last.line)"
            return [(place, .failure(Problem(place: place, message: "ends the file with an empty last field and no line break: the file looks cut short")))]
        }
        let numbers: Set = ["latitude", "longitude"]
        return records.dropFirst().map { record in
            let place = "line \(record.line)"
            guard record.fields.count == names.count else {
                return (place, .failure(Problem(place: place, message: "has \(record.fields.count) fields; the header has \(names.count)")))
            }
            var members: [String: JSONValue] = [:]
            for (name, cell) in zip(names, record.fields) {
                if numbers.contains(name) {
                    guard let number = Double(cell.trimmingCharacters(in: .whitespaces)) else {
                        return (place, .failure(Problem(place: place, message: "\(name) must be a number, not \"\(cell)\"")))
                    }
                    members[name] = .number(number)
                } else {
                    members[name] = .string(undefused(cell))
                }
            }
            return (place, .success(.object(members)))
        }
    }

    /// Takes off the apostrophe the export puts before text a spreadsheet would run as a formula.
    static func undefused(_ cell: String) -> String {
        guard cell.count >= 2, cell.first == "'", let second = cell.dropFirst().first, ExportFormat.formulaStarts.contains(second) else { return cell }
        return String(cell.dropFirst())
    }
}
