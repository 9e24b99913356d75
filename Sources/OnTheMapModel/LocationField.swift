/// The ten fields of a location that queries may sort and filter on.
public enum LocationField: String, Sendable, CaseIterable {
    case objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt

    /// How values of the field compare.
    public enum Kind: Sendable { case text, number, timestamp }

    public var kind: Kind {
        switch self {
        case .latitude, .longitude: .number
        case .createdAt, .updatedAt: .timestamp
        default: .text
        }
    }
}

/// One key of an `order` parameter.
public struct SortKey: Sendable, Equatable {
    public var field: LocationField
    public var descending: Bool

    public init(_ field: LocationField, descending: Bool) {
        self.field = field
        self.descending = descending
    }
}
