import Foundation

/// The time zone a point lies in, for showing a class by time zone: that of the nearest town, found
/// through the city grid as `town(near:)` finds it. A town's own zone beats its country's: the US,
/// Russia, Brazil and Australia span several.
extension Geocoder {
    /// How far the search reaches, widening: most points have a town within the first, and past the
    /// last a point is at sea or in Antarctica, and has no zone.
    static let timeZoneReaches = [50.0, 150, 500]

    /// The IANA time zone ("America/Los_Angeles", "Asia/Kolkata") of the nearest town of any size
    /// within 500 km; nil further from every town (open sea, Antarctica).
    public func timeZone(near latitude: Double, _ longitude: Double) -> String? {
        for reach in Self.timeZoneReaches {
            let latitudeSpan = reach / 111.2 + 0.05
            // Measured at the window's poleward edge, where a degree of longitude is shortest, so
            // that the window holds every town within `reach`: every longitude once it meets a pole.
            let poleward = min(abs(latitude) + latitudeSpan, 90) * .pi / 180
            let longitudeSpan = min(latitudeSpan / cos(poleward), 180)
            if let nearest = nearestTowns(latitude, longitude, latitudeSpan: latitudeSpan, longitudeSpan: longitudeSpan).any,
               nearest.distance <= reach {
                return gazetteer.timeZones.identifier(ofFeature: nearest.feature)
            }
        }
        return nil
    }
}
