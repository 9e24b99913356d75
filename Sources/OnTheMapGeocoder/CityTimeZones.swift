/// Each city's IANA time zone ("America/Los_Angeles"), from timezones.txt and the last column of
/// places.tsv.gz: two bytes a feature, not a string for each of 170,000 towns.
struct CityTimeZones: Sendable {
    /// The zone of a feature that has none: regions, countries, areas, a town GeoNames gives none.
    static let none = UInt16.max

    /// The zones' IANA identifiers, most towns first.
    let identifiers: [String]
    /// Feature → its zone's place in `identifiers`; features past the end (the areas, read after
    /// the places) have none.
    let zoneOfFeature: [UInt16]

    /// The IANA identifier of a feature's zone; nil for a feature that has none.
    func identifier(ofFeature feature: Int) -> String? {
        guard feature < zoneOfFeature.count, zoneOfFeature[feature] != Self.none else { return nil }
        return identifiers[Int(zoneOfFeature[feature])]
    }
}
