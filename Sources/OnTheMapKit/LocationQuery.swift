public import Foundation

/// A list query: which pins, in which order, how many. Built by chaining, sent as Parse's
/// `where`, `order`, `limit`, `skip` and `count`, so it reads the same on every family.
///
/// ```swift
/// let query = LocationQuery()
///     .where(.lastName, .equals("Lovelace"))
///     .where(.updatedAt, .greaterThan(.date(lastWeek)))
///     .ordered(by: .lastName)
///     .limit(20)
/// ```
public struct LocationQuery: Sendable, Hashable {
    /// The fields a query may name: the ten every location has.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt
    }

    /// A value to compare a field with: text, a number or a date.
    public enum Value: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
        case text(String)
        case number(Double)
        case date(Date)

        public init(stringLiteral value: String) { self = .text(value) }
        public init(floatLiteral value: Double) { self = .number(value) }
        public init(integerLiteral value: Int) { self = .number(Double(value)) }
    }

    /// How a field is compared. Conditions on one field all have to hold.
    public enum Comparison: Sendable, Hashable {
        case equals(Value), notEquals(Value)
        case isIn([Value]), notIn([Value])
        case lessThan(Value), lessThanOrEqual(Value), greaterThan(Value), greaterThanOrEqual(Value)
        /// Whether the field is present at all (every location has all ten; Parse apps ask anyway).
        case exists(Bool)
    }

    public enum Direction: Sendable, Hashable { case ascending, descending }

    public struct SortKey: Sendable, Hashable {
        public var field: Field
        public var direction: Direction
    }

    public private(set) var conditions: [Field: [Comparison]] = [:]
    public private(set) var order: [SortKey] = []
    public private(set) var limit: Int?
    public private(set) var skip: Int?
    public private(set) var includesCount = false

    public init() {}

    /// The newest pins first: what every app shows on start.
    public static func latest(_ limit: Int = 100) -> LocationQuery {
        LocationQuery().ordered(by: .updatedAt, .descending).limit(limit)
    }

    public func `where`(_ field: Field, _ comparison: Comparison) -> LocationQuery {
        var copy = self
        copy.conditions[field, default: []].append(comparison)
        return copy
    }

    /// Sorts by `field`, then by any field named before; the server breaks ties by `objectId`, so
    /// paging with `skip` is stable.
    public func ordered(by field: Field, _ direction: Direction = .ascending) -> LocationQuery {
        var copy = self
        copy.order.append(SortKey(field: field, direction: direction))
        return copy
    }

    /// At most this many (the server clamps to its own maximum, 1,000 unless configured).
    public func limit(_ count: Int) -> LocationQuery {
        var copy = self
        copy.limit = count
        return copy
    }

    public func skip(_ count: Int) -> LocationQuery {
        var copy = self
        copy.skip = count
        return copy
    }

    /// Asks for the total number of matches too (`LocationPage.count`).
    public func counted() -> LocationQuery {
        var copy = self
        copy.includesCount = true
        return copy
    }
}

extension LocationQuery {
    /// The query string's parameters, as the server reads them.
    struct Parameters: Sendable, Hashable {
        var limit: String?
        var skip: String?
        var order: String?
        var `where`: String?
        var count: String?
    }

    func parameters() throws(OnTheMapError) -> Parameters {
        let order = self.order.map { ($0.direction == .descending ? "-" : "") + $0.field.rawValue }.joined(separator: ",")
        return Parameters(
            limit: limit.map(String.init), skip: skip.map(String.init), order: order.isEmpty ? nil : order,
            where: try whereText(), count: includesCount ? "1" : nil)
    }

    /// Parse's `where` JSON: `{"lastName": "Lovelace", "updatedAt": {"$gt": {"__type": "Date", …}}}`.
    func whereText() throws(OnTheMapError) -> String? {
        guard !conditions.isEmpty else { return nil }
        var members: [String: JSONValue] = [:]
        for (field, comparisons) in conditions {
            if comparisons.count == 1, case .equals(let value) = comparisons[0] {
                members[field.rawValue] = try value.json()
                continue
            }
            var operators: [String: JSONValue] = [:]
            for comparison in comparisons {
                let (name, operand) = try comparison.json()
                operators[name] = operand
            }
            members[field.rawValue] = .object(operators)
        }
        do {
            return try JSONValue.object(members).jsonText()
        } catch {
            throw OnTheMapError(kind: .invalid, message: "The query has a number JSON cannot say.", parameter: "where")
        }
    }
}

extension LocationQuery.Value {
    func json() throws(OnTheMapError) -> JSONValue {
        switch self {
        case .text(let text): return .string(text)
        case .number(let number):
            guard number.isFinite else {
                throw OnTheMapError(kind: .invalid, message: "\(number) is not a number a query can compare with.", parameter: "where")
            }
            return .number(number)
        case .date(let date): return .object(["__type": .string("Date"), "iso": .string(WireDate.format(date))])
        }
    }
}

extension LocationQuery.Comparison {
    func json() throws(OnTheMapError) -> (String, JSONValue) {
        switch self {
        case .equals(let value): return ("$eq", try value.json())
        case .notEquals(let value): return ("$ne", try value.json())
        case .isIn(let values): return ("$in", .array(try values.map { value throws(OnTheMapError) in try value.json() }))
        case .notIn(let values): return ("$nin", .array(try values.map { value throws(OnTheMapError) in try value.json() }))
        case .lessThan(let value): return ("$lt", try value.json())
        case .lessThanOrEqual(let value): return ("$lte", try value.json())
        case .greaterThan(let value): return ("$gt", try value.json())
        case .greaterThanOrEqual(let value): return ("$gte", try value.json())
        case .exists(let present): return ("$exists", .bool(present))
        }
    }
}
