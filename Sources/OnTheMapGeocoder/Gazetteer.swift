import Foundation

/// Everything the geocoder knows, in memory: features, their names and codes, and postcodes.
public final class Gazetteer: Sendable {
    let features: [GeoFeature]
    let names: NameIndex
    /// Names of the places worth guessing when a query has a typo.
    let typos: TypoIndex
    /// "US" → its country feature.
    let countryByCode: [String: Int]
    /// "US.WA" → its region feature.
    let regionByCode: [String: Int]
    /// Region and country feature → the box that frames it (only the few thousand that have one).
    let bounds: [Int: GeoBounds]
    /// US ZIP codes and other countries' postcodes → their points.
    let postcodes: PostcodeTable
    /// Normalized words that never answer alone, as bytes: the hot path compares parts with them.
    let stopwords: Set<[UInt8]>
    /// aliases.tsv, read: each alias as written → its target feature (for AliasTests).
    let aliases: [(alias: String, feature: Int)]
    /// The cities by 1° cell, for the town a point lies in.
    let cityGrid: CityGrid
    /// The words around a place that are not the place (reader.tsv).
    let reader: ContextReader
    /// Each city's IANA time zone.
    let timeZones: CityTimeZones

    init(features: [GeoFeature], names: NameIndex, typos: TypoIndex, countryByCode: [String: Int], regionByCode: [String: Int],
         bounds: [Int: GeoBounds], postcodes: PostcodeTable, stopwords: Set<[UInt8]>, aliases: [(alias: String, feature: Int)],
         reader: ContextReader, timeZones: CityTimeZones) {
        self.features = features
        self.names = names
        self.typos = typos
        self.countryByCode = countryByCode
        self.regionByCode = regionByCode
        self.bounds = bounds
        self.postcodes = postcodes
        self.stopwords = stopwords
        self.aliases = aliases
        self.cityGrid = CityGrid(features)
        self.reader = reader
        self.timeZones = timeZones
    }

    /// The data shipped with the module.
    public static var bundledDataDirectory: URL {
        Bundle.module.resourceURL!
    }

    /// Loads the gazetteer files from `directory` (the bundled data by default).
    public static func load(from directory: URL = bundledDataDirectory) throws -> Gazetteer {
        try GazetteerLoader(directory: directory).load()
    }

    /// Number of names indexed, for diagnostics.
    public var nameCount: Int { names.count }
    public var featureCount: Int { features.count }

    /// "Seattle, Washington, United States".
    func displayName(of feature: GeoFeature) -> String {
        var parts = [feature.name]
        if feature.kind == .city || feature.kind == .area, let region = regionByCode[feature.countryCode + "." + feature.admin1Code],
           features[region].name != feature.name {
            parts.append(features[region].name)
        }
        if feature.kind != .country, let country = countryByCode[feature.countryCode] {
            parts.append(features[country].name)
        }
        return parts.joined(separator: ", ")
    }
}
