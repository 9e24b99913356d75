import Foundation

/// The town a precise answer lies in, for a student who shares only their town.
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
        // Most answers have a town within 40 km: the few cells around the point settle it, and in
        // Europe's dense cells that is a tenth of the places of the wide search.
        let near = nearestTowns(latitude, longitude, latitudeSpan: Self.townReach / 111.2 + 0.05,
                                longitudeSpan: (Self.townReach / 111.2 + 0.05) / max(cos(latitude * .pi / 180), 0.05))
        let chosen = near.large ?? near.any.flatMap { $0.distance <= Self.townReach ? $0 : nil }
            ?? { let wide = nearestTowns(latitude, longitude, latitudeSpan: 1, longitudeSpan: 2); return wide.large ?? wide.any }()
        return chosen.map { town(of: gazetteer.features[$0.feature]) }
    }

    /// A gazetteer town as the answer's town to share.
    func town(of feature: GeoFeature) -> GeocodeTown {
        GeocodeTown(name: gazetteer.displayName(of: feature), latitude: feature.latitude, longitude: feature.longitude)
    }

    /// The nearest town of 15,000 or more within 40 km, and the nearest place, among the cities
    /// within the spans (`timeZone(near:)` reads the nearest place's zone).
    func nearestTowns(_ latitude: Double, _ longitude: Double, latitudeSpan: Double, longitudeSpan: Double)
        -> (large: (distance: Double, feature: Int)?, any: (distance: Double, feature: Int)?) {
        var nearestLarge: (distance: Double, feature: Int)?
        var nearest: (distance: Double, feature: Int)?
        let features = gazetteer.features
        gazetteer.cityGrid.forEachCity(near: latitude, longitude, latitudeSpan: latitudeSpan, longitudeSpan: longitudeSpan) { index in
            let cityLatitude = features[index].latitude
            let cityLongitude = features[index].longitude
            guard abs(cityLatitude - latitude) < latitudeSpan, abs(remainder(cityLongitude - longitude, 360)) < longitudeSpan else { return }
            let distance = QualifierHits.kilometres(latitude, longitude, cityLatitude, cityLongitude)
            if distance < nearest?.distance ?? .infinity { nearest = (distance, index) }
            if features[index].population >= Self.townPopulation, distance <= Self.townReach,
               distance < nearestLarge?.distance ?? .infinity {
                nearestLarge = (distance, index)
            }
        }
        return (nearestLarge, nearest)
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
