import Foundation

/// What one qualifier part names, looked up once per query.
struct QualifierHits {
    let text: [UInt8]
    let hits: [(feature: Int, match: NameIndex.Match)]

    init(text: [UInt8], gazetteer: Gazetteer) {
        self.text = text
        hits = gazetteer.names.hits(normalized: text).map { ($0.feature, $0.match) }
    }

    /// Agreement raises the score, a named region or country that does not contain the candidate
    /// lowers it a lot, an unknown word lowers it less (it may be a district or a typo), and in an
    /// address hardly at all (a colonia, a bairro, a building: "Centro Histórico, 06050 Ciudad de
    /// México"). A code of a region abroad is most likely a province code the gazetteer lacks
    /// ("Milano MI" is Milan, Lombardy, not Michigan).
    func score(for candidate: Int, in gazetteer: Gazetteer, inAddress: Bool = false) -> Double {
        let feature = gazetteer.features[candidate]
        if Ranker.regionWords.contains(text) { return feature.kind == .region ? 35 : -10 }
        if Ranker.countryWords.contains(text) { return feature.kind == .country ? 35 : -10 }
        guard !hits.isEmpty else { return inAddress ? -5 : -25 }
        var best = -Double.infinity
        var namesContainer = false
        var onlyCodesAbroad = true
        for hit in hits where hit.feature != candidate {
            let other = gazetteer.features[hit.feature]
            if other.kind != .city, hit.match != .code || other.countryCode == feature.countryCode { onlyCodesAbroad = false }
            switch other.kind {
            case .country:
                namesContainer = true
                if other.countryCode == feature.countryCode { best = max(best, hit.match == .code ? 15 : 30) }
            case .region:
                namesContainer = true
                if feature.kind == .city || feature.kind == .area, other.countryCode == feature.countryCode,
                   other.admin1Code == feature.admin1Code {
                    best = max(best, 30)
                }
            case .area:
                // "Riverside, Inland Empire": a town inside the area's box.
                namesContainer = true
                if other.countryCode == feature.countryCode, gazetteer.bounds[hit.feature]?.contains(feature.latitude, feature.longitude) == true {
                    best = max(best, 30)
                }
            case .city:
                // A larger city around the subject names where it is ("Powai, Mumbai", "Cambridge,
                // Boston"): the neighbourhood typed first is the place, as addresses are written.
                if Self.kilometres(feature, other) < 50 { best = max(best, other.population > feature.population ? 45 : 20) }
            }
        }
        if best > -.infinity { return best }
        return namesContainer && !onlyCodesAbroad ? -60 : -20
    }

    /// Equirectangular distance: plenty for "within a few dozen kilometres".
    static func kilometres(_ a: GeoFeature, _ b: GeoFeature) -> Double {
        kilometres(a.latitude, a.longitude, b.latitude, b.longitude)
    }

    /// The same between two points, the short way across the date line.
    static func kilometres(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let x = remainder(longitude2 - longitude1, 360) * cos((latitude1 + latitude2) / 2 * .pi / 180)
        let y = latitude2 - latitude1
        return (x * x + y * y).squareRoot() * 111.2
    }
}
