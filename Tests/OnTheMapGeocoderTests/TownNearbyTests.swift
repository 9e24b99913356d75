@testable import OnTheMapGeocoder
import Foundation
import Testing

/// The town a precise answer lies in, found through the city grid. The grid must
/// find exactly what a scan of every place finds, at any point of the world, the date line included.
@Suite struct TownNearbyTests {
    /// The scan the grid replaced: every city, inside the same window, by the same rule.
    static func townByScan(_ latitude: Double, _ longitude: Double) -> String? {
        let gazetteer = Shared.geocoder.gazetteer
        let probe = GeoFeature(kind: .city, name: "", latitude: latitude, longitude: longitude, countryCode: "", admin1Code: "", population: 0)
        var nearestLarge: (distance: Double, feature: Int)?
        var nearest: (distance: Double, feature: Int)?
        for (index, feature) in gazetteer.features.enumerated() where feature.kind == .city {
            guard abs(feature.latitude - latitude) < 1, abs(remainder(feature.longitude - longitude, 360)) < 2 else { continue }
            let distance = QualifierHits.kilometres(probe, feature)
            if distance < nearest?.distance ?? .infinity { nearest = (distance, index) }
            if feature.population >= Geocoder.townPopulation, distance <= Geocoder.townReach, distance < nearestLarge?.distance ?? .infinity {
                nearestLarge = (distance, index)
            }
        }
        return (nearestLarge ?? nearest).map { gazetteer.displayName(of: gazetteer.features[$0.feature]) }
    }

    /// (The scan takes tens of milliseconds a point in a debug build: 125 points.)
    @Test func theGridFindsWhatAScanFinds() async {
        var generator = SeededGenerator(seed: 20261124)
        // Towns' own points and points near them (where students are), and anywhere at all.
        let features = Shared.geocoder.gazetteer.features
        var points: [(Double, Double)] = (0..<80).map { _ in
            let town = features[Int.random(in: 0..<features.count, using: &generator)]
            return (town.latitude + Double.random(in: -0.5...0.5, using: &generator), town.longitude + Double.random(in: -0.5...0.5, using: &generator))
        }
        points += (0..<40).map { _ in (Double.random(in: -89...89, using: &generator), Double.random(in: -180...180, using: &generator)) }
        points += [(-17.8, 179.9), (-17.8, -179.9), (65.6, -168.1), (89.5, 10), (-89.5, 0)]
        for (latitude, longitude) in points {
            // A point at a time: the scans hold a thread of the pool the other suites' servers answer on.
            await Task.yield()
            #expect(Shared.geocoder.town(near: latitude, longitude)?.name == Self.townByScan(latitude, longitude), "\(latitude), \(longitude)")
        }
    }

    @Test func aStreetAddressIsInItsTownNotAHamlet() throws {
        // Downtown Mountain View: the town, though smaller places of the gazetteer are as near.
        let town = try #require(Shared.geocoder.town(near: 37.3894, -122.0819))
        #expect(town.name == "Mountain View, California, United States")
        #expect(Shared.geocoder.town(near: 0, -140) == nil, "mid-Pacific: no town at all")
    }
}

/// A small fixed-seed generator (SplitMix64): the same points on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
