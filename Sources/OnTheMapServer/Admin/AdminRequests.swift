import Hummingbird
import OnTheMapModel

/// The query of an admin list: `search`, `limit` (1–200, default 50), `skip`, `hidden`, `status`,
/// `before`, `format`; a bad value is a 400 that names it.
struct AdminPage {
    var search: String?
    var limit = 50
    var skip = 0
    var hiddenOnly = false
    var all = false
    var before: Int64?
    var format = ExportFormat.geojson

    init(_ request: Request) throws(APIError) {
        for (name, value) in QueryString.parse(request.uri.query) {
            switch name {
            case "search": search = String(value.prefix(200))
            case "limit": limit = try Self.number(name, value, in: 1...200)
            case "skip": skip = try Self.number(name, value, in: 0...100_000)
            case "before": before = Int64(try Self.number(name, value, in: 1...Int.max))
            case "hidden": hiddenOnly = value == "true"
            case "status":
                guard value == "open" || value == "all" else { throw .invalidQuery("status must be open or all.", parameter: name) }
                all = value == "all"
            case "format":
                guard let chosen = ExportFormat(rawValue: value) else { throw .invalidQuery("format must be geojson, csv or jsonl.", parameter: name) }
                format = chosen
            default: continue
            }
        }
    }

    private static func number(_ name: String, _ value: String, in range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw .invalidQuery("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).", parameter: name)
        }
        return number
    }
}

/// A PATCH body: a JSON object of booleans, only the fields the route knows.
struct AdminChange {
    let fields: [String: JSONValue]

    init(_ value: JSONValue, allowed: Set<String>) throws(APIError) {
        guard let object = value.object else { throw .invalidJSON() }
        for (name, field) in object {
            guard allowed.contains(name) else {
                throw .validation(name, "\(name) cannot be changed here; send \(allowed.sorted().joined(separator: " or ")).")
            }
            guard case .bool = field else { throw .incorrectType(name, expected: "true or false") }
        }
        fields = object
    }

    func flag(_ name: String) -> Bool? {
        if case .bool(let flag)? = fields[name] { return flag }
        return nil
    }
}
