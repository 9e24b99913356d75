/// How precisely an answer locates the input.
public enum GeoAccuracy: String, Sendable, Codable, CaseIterable {
    case address, postcode, city, region, country
}

/// Something with a name and a point: a town, a state or province, a country.
struct GeoFeature: Sendable {
    enum Kind: UInt8, Sendable { case city, region, country }

    let kind: Kind
    let name: String
    let latitude: Double
    let longitude: Double
    /// ISO 3166-1 alpha-2.
    let countryCode: String
    /// GeoNames admin1 code within the country ("WA", "08"); empty for countries.
    let admin1Code: String
    let population: Int
}

/// One answer of the geocoder.
public struct GeocodeResult: Sendable, Equatable, Codable {
    /// "Seattle, Washington, United States".
    public let name: String
    public let latitude: Double
    public let longitude: Double
    public let countryCode: String
    public let accuracy: GeoAccuracy

    public init(name: String, latitude: Double, longitude: Double, countryCode: String, accuracy: GeoAccuracy) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.countryCode = countryCode
        self.accuracy = accuracy
    }
}
