@testable import OnTheMapGeocoder
import Foundation
import Testing

/// Every town has its IANA time zone. The browser hands the identifier to Intl, so each must be a
/// real zone.
@Suite struct TimeZoneTests {
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
}
