extension LocationQuery {
    /// Fields whose order reads its first page from an index (migration 2), objectId breaking ties.
    public static let indexedOrderFields: Set<LocationField> = [.updatedAt, .createdAt, .lastName, .firstName, .objectId, .uniqueKey]

    /// Whether the store answers this from an index, touching about `skip + limit` rows whatever the
    /// table's size: a filter that names pins by `uniqueKey` or `objectId` (equality or `$in`), or no
    /// filter (or, without `count`, only a range on the first order key) with an indexed first order
    /// key. Anything else may scan the table and counts as expensive: it runs in its own, smaller lane.
    public var isIndexed: Bool {
        if filter.namesFewRows { return true }
        // Counting the rows of a range walks all of them.
        if includeCount, filter != .all { return false }
        let first = order.first?.field ?? .updatedAt
        guard Self.indexedOrderFields.contains(first) else { return false }
        return filter == .all || filter.isRange(on: first)
    }
}

extension LocationFilter {
    /// Matches only pins named by `uniqueKey` or `objectId`, which have indexes.
    public var namesFewRows: Bool {
        switch self {
        case .none: true
        case .compare(let field, .equal, _), .oneOf(let field, _, negated: false): field == .uniqueKey || field == .objectId
        case .and(let parts): parts.contains(where: \.namesFewRows)
        case .or(let parts): parts.allSatisfy(\.namesFewRows)
        default: false
        }
    }

    /// Only comparisons (`=`, `<`, `<=`, `>`, `>=`) on `field`, which its index answers in order.
    func isRange(on field: LocationField) -> Bool {
        switch self {
        case .compare(field, let comparison, _): comparison != .notEqual
        case .and(let parts): parts.allSatisfy { $0.isRange(on: field) }
        default: false
        }
    }
}
