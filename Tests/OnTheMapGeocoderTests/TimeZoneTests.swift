@testable import OnTheMapGeocoder
import Foundation
import Testing

/// A point's IANA time zone is its nearest town's, found through the city grid; far from every
/// town there is none. The browser hands the identifier to Intl, so each must be a real zone.
@Suite struct TimeZoneTests {
    @Test(arguments: [
        ("Seattle", 47.6062, -122.3321, "America/Los_Angeles"),
        ("New Delhi", 28.6139, 77.2090, "Asia/Kolkata"),
        ("São Paulo", -23.5505, -46.6333, "America/Sao_Paulo"),
        ("Berlin", 52.5200, 13.4050, "Europe/Berlin"),
        ("Sydney", -33.8688, 151.2093, "Australia/Sydney"),
        ("Honolulu", 21.3069, -157.8583, "Pacific/Honolulu"),
    ])
    func aCityIsInItsZone(city: String, latitude: Double, longitude: Double, zone: String) {
        #expect(Shared.geocoder.timeZone(near: latitude, longitude) == zone, "\(city)")
    }

    /// Towns a few kilometres apart across a border: El Paso keeps US Mountain Time and Ciudad
    /// Juárez has had a zone of its own since 2022; Badajoz is an hour ahead of Elvas, 17 km away.
    @Test func eachSideOfABorderHasItsOwnZone() {
        #expect(Shared.geocoder.timeZone(near: 31.7587, -106.4869) == "America/Denver")
        #expect(Shared.geocoder.timeZone(near: 31.7202, -106.4608) == "America/Ciudad_Juarez")
        #expect(Shared.geocoder.timeZone(near: 38.8794, -6.9707) == "Europe/Madrid")
        #expect(Shared.geocoder.timeZone(near: 38.8814, -7.1628) == "Europe/Lisbon")
    }

    @Test func noZoneFarFromEveryTown() {
        #expect(Shared.geocoder.timeZone(near: 30, -140) == nil, "mid-Pacific, 1,800 km from California")
        #expect(Shared.geocoder.timeZone(near: -85, 0) == nil, "Antarctica")
    }

    /// Intl throws on an identifier it does not know: every one of the data must be a zone that
    /// Foundation knows too (and the check can fail).
    @Test func everyZoneIsARealZone() {
        let identifiers = Shared.geocoder.gazetteer.timeZones.identifiers
        #expect(identifiers.count > 300)
        for identifier in identifiers { #expect(TimeZone(identifier: identifier) != nil, "\(identifier)") }
        #expect(TimeZone(identifier: "Mars/Olympus_Mons") == nil)
    }

    /// Every town has its zone and nothing else has one: the zones line up with the features.
    @Test func everyTownAndOnlyATownHasAZone() {
        let gazetteer = Shared.geocoder.gazetteer
        let mismatched = gazetteer.features.indices.filter {
            (gazetteer.features[$0].kind == .city) != (gazetteer.timeZones.identifier(ofFeature: $0) != nil)
        }
        #expect(mismatched.isEmpty, "\(mismatched.prefix(5).map { gazetteer.features[$0].name })")
    }

    /// The scan the widening grid search stands for: the zone of the nearest town of all, if it is
    /// within the last reach.
    static func zoneByScan(_ latitude: Double, _ longitude: Double) -> String? {
        let gazetteer = Shared.geocoder.gazetteer
        var nearest: (distance: Double, feature: Int)?
        for (index, feature) in gazetteer.features.enumerated() where feature.kind == .city {
            let distance = QualifierHits.kilometres(latitude, longitude, feature.latitude, feature.longitude)
            if distance < nearest?.distance ?? .infinity { nearest = (distance, index) }
        }
        guard let nearest, nearest.distance <= Geocoder.timeZoneReaches.last! else { return nil }
        return gazetteer.timeZones.identifier(ofFeature: nearest.feature)
    }

    /// Near the gazetteer's places, anywhere at all (mostly at sea, where the search widens), near
    /// the poles and across the date line. (The scan takes tens of milliseconds a point in a debug
    /// build.)
    @Test func theGridFindsWhatAScanFinds() async {
        var generator = SeededGenerator(seed: 20261129)
        let features = Shared.geocoder.gazetteer.features
        var points: [(Double, Double)] = (0..<40).map { _ in
            let town = features[Int.random(in: 0..<features.count, using: &generator)]
            return (town.latitude + Double.random(in: -1...1, using: &generator), town.longitude + Double.random(in: -1...1, using: &generator))
        }
        points += (0..<60).map { _ in (Double.random(in: -89...89, using: &generator), Double.random(in: -180...180, using: &generator)) }
        points += [(78.5, 10), (71, -160), (-56, -67), (66, -45), (89.5, 10), (-17.8, 179.9), (-17.8, -179.9), (52, -178), (-45, 175)]
        for (latitude, longitude) in points {
            // A point at a time: the scans hold a thread of the pool the other suites' servers answer on.
            await Task.yield()
            #expect(Shared.geocoder.timeZone(near: latitude, longitude) == Self.zoneByScan(latitude, longitude), "\(latitude), \(longitude)")
        }
    }
}
