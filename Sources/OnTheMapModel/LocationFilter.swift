/// A `where` clause as a tree the store can turn into SQL.
public indirect enum LocationFilter: Sendable, Equatable {
    /// Matches every location.
    case all
    /// Matches none (for example equality on a field locations do not have).
    case none
    case and([LocationFilter])
    case or([LocationFilter])
    case compare(LocationField, Comparison, FilterValue)
    /// `$in` (or `$nin` when `negated`).
    case oneOf(LocationField, [FilterValue], negated: Bool)

    public enum Comparison: String, Sendable {
        case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// Every part must match. An empty list (Parse's `{}`) matches everything, as does a list of
    /// parts that each match everything; one part that matches nothing makes the whole match nothing.
    public static func allOf(_ parts: [LocationFilter]) -> LocationFilter {
        if parts.contains(.none) { return .none }
        let constraining = parts.flatMap { part -> [LocationFilter] in
            switch part {
            case .all: []
            case .and(let inner): inner
            default: [part]
            }
        }
        return constraining.count <= 1 ? constraining.first ?? .all : .and(constraining)
    }

    /// Any part may match. One part that matches everything (`{}` in `$or`) makes the whole match
    /// everything; parts that match nothing drop out, and with none left nothing matches.
    public static func anyOf(_ parts: [LocationFilter]) -> LocationFilter {
        if parts.contains(.all) { return .all }
        let possible = parts.filter { $0 != .none }
        return possible.count <= 1 ? possible.first ?? .none : .or(possible)
    }
}

/// A literal in a filter, already converted to the field's kind.
public enum FilterValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    /// Milliseconds since the epoch.
    case timestamp(Int64)
}

/// Parses Parse's `where` JSON: field equality, `$in`, `$nin`, `$ne`, `$exists`, `$lt`, `$lte`, `$gt`,
/// `$gte`, `$eq`, `$or` and `$and`; dates as ISO strings or `{"__type": "Date", "iso": …}`.
///
/// A field that locations do not have behaves as Parse treats a missing field: equality never
/// matches, `$ne`/`$nin`/`$exists: false` always do.
public struct WhereParser {
    static let maxDepth = 8
    static let maxNodes = 256
    static let maxListLength = 1000

    private var nodes = 0

    public init() {}

    /// Parses the decoded `where` document.
    public mutating func parse(_ json: JSONValue) throws(APIError) -> LocationFilter {
        try clause(json, depth: 0)
    }

    private mutating func clause(_ json: JSONValue, depth: Int) throws(APIError) -> LocationFilter {
        guard depth < Self.maxDepth else { throw .invalidQuery("where is nested too deeply.", parameter: "where") }
        guard let members = json.object else { throw .invalidQuery("where must be a JSON object.", parameter: "where") }
        var parts: [LocationFilter] = []
        for key in members.keys.sorted() {
            let value = members[key]!
            switch key {
            case "$or", "$and":
                guard case .array(let items) = value, !items.isEmpty else {
                    throw .invalidQuery("\(key) takes a non-empty array of conditions.", parameter: "where")
                }
                var branches: [LocationFilter] = []
                for item in items { branches.append(try clause(item, depth: depth + 1)) }
                parts.append(key == "$or" ? .anyOf(branches) : .allOf(branches))
            default:
                guard !key.hasPrefix("$") else { throw .invalidQuery("Unsupported operator \(key).", parameter: "where") }
                parts.append(try condition(field: key, value))
            }
        }
        return .allOf(parts)
    }

    private mutating func condition(field name: String, _ value: JSONValue) throws(APIError) -> LocationFilter {
        nodes += 1
        guard nodes <= Self.maxNodes else { throw .invalidQuery("where has too many conditions.", parameter: "where") }
        let field = LocationField(rawValue: name)
        guard case .object(let members) = value, members["__type"] == nil,
              members.keys.contains(where: { $0.hasPrefix("$") }) else {
            return try equality(field, value, name: name)
        }
        var parts: [LocationFilter] = []
        for op in members.keys.sorted() {
            parts.append(try operation(op, field, members[op]!, name: name))
        }
        return .allOf(parts)
    }

    private func equality(_ field: LocationField?, _ value: JSONValue, name: String) throws(APIError) -> LocationFilter {
        guard let field else { return value == .null ? .all : .none }
        if value == .null { return .none }
        return .compare(field, .equal, try literal(value, for: field, name: name))
    }

    private func operation(_ op: String, _ field: LocationField?, _ value: JSONValue, name: String) throws(APIError) -> LocationFilter {
        switch op {
        case "$exists":
            guard case .bool(let exists) = value else { throw .invalidQuery("$exists takes true or false.", parameter: "where") }
            return (field != nil) == exists ? .all : .none
        case "$eq":
            return try equality(field, value, name: name)
        case "$ne":
            guard let field else { return value == .null ? .none : .all }
            if value == .null { return .all }
            return .compare(field, .notEqual, try literal(value, for: field, name: name))
        case "$in", "$nin":
            guard case .array(let items) = value, items.count <= Self.maxListLength else {
                throw .invalidQuery("\(op) takes an array of at most \(Self.maxListLength) values.", parameter: "where")
            }
            let negated = op == "$nin"
            guard let field else { return negated ? .all : .none }
            var values: [FilterValue] = []
            for item in items where item != .null { values.append(try literal(item, for: field, name: name)) }
            if values.isEmpty { return negated ? .all : .none }
            return .oneOf(field, values, negated: negated)
        case "$lt", "$lte", "$gt", "$gte":
            let comparison: LocationFilter.Comparison =
                switch op { case "$lt": .less; case "$lte": .lessOrEqual; case "$gt": .greater; default: .greaterOrEqual }
            guard let field else { return .none }
            return .compare(field, comparison, try literal(value, for: field, name: name))
        default:
            throw .invalidQuery("Unsupported operator \(op).", parameter: "where")
        }
    }

    /// Converts a JSON literal to the kind of `field`. Integers given for text fields are read as
    /// their decimal text, since some clients send `uniqueKey` unquoted.
    private func literal(_ value: JSONValue, for field: LocationField, name: String) throws(APIError) -> FilterValue {
        switch (field.kind, value) {
        case (.text, .string(let text)):
            // No stored text holds one (writes refuse it), and PostgreSQL cannot even be asked.
            guard !text.contains("\u{0}") else { throw .invalidQuery("\(name) must not be compared with text holding the NUL character.", parameter: "where") }
            return .text(text)
        case (.text, .number(let number)) where number.rounded() == number && abs(number) < 1e15:
            return .text(String(Int64(number)))
        case (.number, .number(let number)):
            return .number(number)
        case (.timestamp, .string(let text)):
            guard let millis = WireTime.parseMillis(text) else { throw badDate(name) }
            return .timestamp(millis)
        case (.timestamp, .object(let members)):
            guard members["__type"] == .string("Date"), case .string(let iso)? = members["iso"],
                  let millis = WireTime.parseMillis(iso) else { throw badDate(name) }
            return .timestamp(millis)
        default:
            throw .invalidQuery("\(name) cannot be compared with \(value.typeName).", parameter: "where")
        }
    }

    private func badDate(_ name: String) -> APIError {
        .invalidQuery("\(name) takes an ISO-8601 date such as 2019-05-21T20:59:15.162Z.", parameter: "where")
    }
}
