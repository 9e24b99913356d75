/// How precisely an answer locates the input.
public enum GeoAccuracy: String, Sendable, Codable, CaseIterable {
    case address, postcode, city, region, country
}

/// Something with a name and a point: a town, a state or province, a country, or an area people
/// name ("Inland Empire", "Randstad": areas.tsv).
struct GeoFeature: Sendable {
    enum Kind: UInt8, Sendable { case city, region, country, area }

    let kind: Kind
    let name: String
    let latitude: Double
    let longitude: Double
    /// ISO 3166-1 alpha-2.
    let countryCode: String
    /// GeoNames admin1 code within the country ("WA", "08"); empty for countries and for areas
    /// that span several regions.
    let admin1Code: String
    let population: Int
}

/// The box a map should frame to show a whole region or country. `west > east` when it crosses
/// the date line. Encoded as GeoJSON's `bbox`: `[west, south, east, north]`.
public struct GeoBounds: Sendable, Equatable, Codable {
    public let west: Double
    public let south: Double
    public let east: Double
    public let north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Whether the point lies in the box (across the date line when `west > east`).
    func contains(_ latitude: Double, _ longitude: Double) -> Bool {
        guard (south...north).contains(latitude) else { return false }
        return west <= east ? (west...east).contains(longitude) : longitude >= west || longitude <= east
    }

    /// "west,south,east,north" as `make geodata` writes it; nil when empty or malformed.
    init?(field: Substring) {
        let values = field.split(separator: ",").compactMap { Double($0) }
        guard values.count == 4, (-90...90).contains(values[1]), (-90...90).contains(values[3]), values[1] <= values[3],
              (-180...180).contains(values[0]), (-180...180).contains(values[2]) else { return nil }
        self.init(west: values[0], south: values[1], east: values[2], north: values[3])
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(west: try container.decode(Double.self), south: try container.decode(Double.self),
                  east: try container.decode(Double.self), north: try container.decode(Double.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(west)
        try container.encode(south)
        try container.encode(east)
        try container.encode(north)
    }
}

/// One answer of the geocoder.
public struct GeocodeResult: Sendable, Equatable, Codable {
    /// "Seattle, Washington, United States".
    public let name: String
    public let latitude: Double
    public let longitude: Double
    public let countryCode: String
    public let accuracy: GeoAccuracy
    /// For regions and countries: the box that shows all of it. Absent for points.
    public let bbox: GeoBounds?
    /// For `address` and `postcode` answers: the town it lies in, for sharing only the town.
    public var town: GeocodeTown?

    public init(name: String, latitude: Double, longitude: Double, countryCode: String, accuracy: GeoAccuracy,
                bbox: GeoBounds? = nil, town: GeocodeTown? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.countryCode = countryCode
        self.accuracy = accuracy
        self.bbox = bbox
        self.town = town
    }
}
