/// A parsed `GET …/StudentLocation` request.
public struct LocationQuery: Sendable, Equatable {
    public static let defaultLimit = 100

    public var limit: Int
    public var skip: Int
    /// The keys as asked; empty means newest `updatedAt` first. See `effectiveOrder`.
    public var order: [SortKey]
    public var filter: LocationFilter
    public var includeCount: Bool

    public init(
        limit: Int = LocationQuery.defaultLimit, skip: Int = 0, order: [SortKey] = [],
        filter: LocationFilter = .all, includeCount: Bool = false
    ) {
        self.limit = limit
        self.skip = skip
        self.order = order
        self.filter = filter
        self.includeCount = includeCount
    }

    /// The order to run: as asked (newest `updatedAt` first if nothing usable was asked), then
    /// `objectId` so that paging with `skip` is stable.
    public var effectiveOrder: [SortKey] {
        var keys = order.isEmpty ? [SortKey(.updatedAt, descending: true)] : order
        if !keys.contains(where: { $0.field == .objectId }) { keys.append(SortKey(.objectId, descending: false)) }
        return keys
    }

    /// The list every client asks for on start: the latest 100, nothing else. Its encoded bytes are cached.
    public var isDefaultList: Bool {
        limit == Self.defaultLimit && skip == 0 && filter == .all && !includeCount
            && (order.isEmpty || order == [SortKey(.updatedAt, descending: true)])
    }

    /// Reads the query parameters (already percent-decoded, in request order). Unknown parameters
    /// and unknown `order` keys are ignored; a limit above `maxLimit` is clamped; malformed values
    /// and a skip above `maxSkip` (every skipped row is walked over) are a 400.
    public static func parse(
        _ parameters: [(name: String, value: String)], maxLimit: Int, maxSkip: Int
    ) throws(APIError) -> LocationQuery {
        var query = LocationQuery()
        var filters: [LocationFilter] = []
        for (name, value) in parameters {
            switch name {
            case "limit":
                guard let limit = Int(value), limit >= 0 else {
                    throw .invalidQuery("limit must be a whole number of 0 or more.", parameter: "limit")
                }
                query.limit = min(limit, maxLimit)
            case "skip":
                guard let skip = Int(value), skip >= 0 else {
                    throw .invalidQuery("skip must be a whole number of 0 or more.", parameter: "skip")
                }
                guard skip <= maxSkip else {
                    throw .invalidQuery("skip may be at most \(maxSkip); narrow the list with where, or page by updatedAt instead.", parameter: "skip")
                }
                query.skip = skip
            case "order":
                query.order = parseOrder(value)
            case "count":
                switch value.lowercased() {
                case "1", "true": query.includeCount = true
                case "0", "false", "": query.includeCount = false
                default: throw .invalidQuery("count must be 1 or 0.", parameter: "count")
                }
            case "uniqueKey":
                guard !value.contains("\u{0}") else { throw .invalidQuery("uniqueKey must not contain the NUL character.", parameter: "uniqueKey") }
                filters.append(.compare(.uniqueKey, .equal, .text(value)))
            case "where":
                filters.append(try parseWhere(value))
            default:
                continue
            }
        }
        query.filter = .allOf(filters)
        return query
    }

    /// `-updatedAt,lastName` → keys; unknown names (the real typo `-updateAt`) are skipped.
    static func parseOrder(_ value: String) -> [SortKey] {
        value.split(separator: ",").compactMap { part in
            let trimmed = part.trimmingCharacters(in: " ")
            let descending = trimmed.hasPrefix("-")
            return LocationField(rawValue: String(descending ? trimmed.dropFirst() : trimmed[...]))
                .map { SortKey($0, descending: descending) }
        }
    }

    /// Decodes and parses a `where` value. A client that form-encodes sends spaces as `+`; JSON
    /// cannot contain a bare `+` outside strings, so a document that fails as sent is tried once
    /// more with `+` read as a space.
    static func parseWhere(_ value: String) throws(APIError) -> LocationFilter {
        let json: JSONValue
        do {
            json = try JSONReader.read(value.utf8)
        } catch .tooDeep(let limit) {
            throw .invalidQuery("where nests arrays and objects more than \(limit) levels deep.", parameter: "where")
        } catch {
            guard let spaced = JSONValue.parse(value.replacingPlus().utf8) else {
                throw .invalidQuery("where must be URL-encoded JSON, like {\"uniqueKey\":\"1234\"}.", parameter: "where")
            }
            json = spaced
        }
        var parser = WhereParser()
        return try parser.parse(json)
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> Substring {
        var slice = self[...]
        while slice.first == set { slice = slice.dropFirst() }
        while slice.last == set { slice = slice.dropLast() }
        return Substring(slice)
    }

    func replacingPlus() -> String { String(self.map { $0 == "+" ? " " : $0 }) }
}
