import Foundation

/// The town a precise answer lies in, for a student who shares only their town (issue 12, item 7).
extension Geocoder {
    /// Towns this large are preferred when one is this near: sharing "the town" should not name a
    /// hamlet of a few hundred people.
    static let townPopulation = 15_000
    static let townReach = 40.0

    /// The town for an answer at `address` or `postcode` precision; nil for coarser answers.
    public func town(for result: GeocodeResult) -> GeocodeTown? {
        guard result.accuracy == .address || result.accuracy == .postcode else { return nil }
        return town(near: result.latitude, result.longitude)
    }

    /// The nearest town of 15,000 people or more within 40 km, else the nearest place of any size
    /// (within a degree of latitude and two of longitude).
    public func town(near latitude: Double, _ longitude: Double) -> GeocodeTown? {
        var nearestLarge: (distance: Double, feature: Int)?
        var nearest: (distance: Double, feature: Int)?
        let probe = GeoFeature(kind: .city, name: "", latitude: latitude, longitude: longitude, countryCode: "", admin1Code: "", population: 0)
        gazetteer.cityGrid.forEachCity(near: latitude, longitude, latitudeSpan: 1, longitudeSpan: 2) { index in
            let feature = gazetteer.features[index]
            guard abs(feature.latitude - latitude) < 1, abs(remainder(feature.longitude - longitude, 360)) < 2 else { return }
            let distance = QualifierHits.kilometres(probe, feature)
            if distance < nearest?.distance ?? .infinity { nearest = (distance, index) }
            if feature.population >= Self.townPopulation, distance <= Self.townReach, distance < nearestLarge?.distance ?? .infinity {
                nearestLarge = (distance, index)
            }
        }
        guard let chosen = nearestLarge ?? nearest else { return nil }
        let feature = gazetteer.features[chosen.feature]
        return GeocodeTown(name: gazetteer.displayName(of: feature), latitude: feature.latitude, longitude: feature.longitude)
    }
}

/// A town's name and point.
public struct GeocodeTown: Sendable, Equatable, Codable {
    public let name: String
    public let latitude: Double
    public let longitude: Double

    public init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Answers and what kind of text they answer.
public struct GeocodeAnswer: Sendable {
    public let input: GeocodeInput
    public let results: [GeocodeResult]
}

/// What kind of text was typed: a privacy choice is offered for the precise kinds.
public enum GeocodeInput: String, Sendable, Codable {
    /// A street address ("1600 Amphitheatre Pkwy, …").
    case street
    /// A postcode with or without a town ("75001 Paris", "94043").
    case postcode
    /// Raw coordinates.
    case coordinates
    /// A place: town, region, country.
    case place

    init(_ query: ParsedQuery) {
        self = query.coordinates != nil ? .coordinates : query.hadStreet ? .street : (query.hadPostcode || query.zip != nil) ? .postcode : .place
    }
}
