import CompressNIO
import Foundation
import NIOCore

/// Reads the files of `make geodata` (see ATTRIBUTION.md) into a `Gazetteer`.
struct GazetteerLoader {
    let directory: URL

    /// A file of the gazetteer could not be read.
    struct LoadError: Error, CustomStringConvertible {
        let file: String
        let reason: String
        var description: String { "cannot load geocoder data \(file): \(reason)" }
    }

    private var features: [GeoFeature] = []
    private var names = NameIndex.Builder()
    private var countryByCode: [String: Int] = [:]
    private var regionByCode: [String: Int] = [:]
    private var placeByGeonameID: [Int: Int] = [:]
    private var scratch: [UInt8] = []

    init(directory: URL) { self.directory = directory }

    consuming func load() throws -> Gazetteer {
        names.reserve(1_300_000)
        try readCountries()
        try readRegions()
        try readPlaces()
        try readAliases()
        let zips = try readZips()
        let stopwords = try Set(lines(of: "stopwords.txt").map { TextNormalizer.normalize($0) })
        return Gazetteer(features: features, names: names.build(), countryByCode: countryByCode,
                         regionByCode: regionByCode, zips: zips, stopwords: stopwords)
    }

    /// country, name, latitude, longitude, population, other names.
    private mutating func readCountries() throws {
        for fields in try rows(of: "countries.tsv.gz", columns: 6) {
            let code = String(fields[0])
            let index = add(GeoFeature(kind: .country, name: String(fields[1]), latitude: Double(fields[2]) ?? 0,
                                       longitude: Double(fields[3]) ?? 0, countryCode: code, admin1Code: "",
                                       population: Int(fields[4]) ?? 0), name: fields[1])
            countryByCode[code] = index
            addName(fields[0], feature: index, match: .code)
            for other in fields[5].split(separator: "|") { addName(other, feature: index, match: .alternate) }
        }
    }

    /// country, admin1 code, name, abbreviations, latitude, longitude, population.
    private mutating func readRegions() throws {
        for fields in try rows(of: "admin1.tsv.gz", columns: 7) {
            let index = add(GeoFeature(kind: .region, name: String(fields[2]), latitude: Double(fields[4]) ?? 0,
                                       longitude: Double(fields[5]) ?? 0, countryCode: String(fields[0]),
                                       admin1Code: String(fields[1]), population: Int(fields[6]) ?? 0), name: fields[2])
            regionByCode[fields[0] + "." + fields[1]] = index
            for abbreviation in fields[3].split(separator: "|") { addName(abbreviation, feature: index, match: .code) }
            for variant in Self.shortRegionNames(fields[2]) { addName(variant[...], feature: index, match: .alternate) }
        }
    }

    /// geonameid, name, latitude, longitude, country, admin1 code, population, alternate names.
    private mutating func readPlaces() throws {
        for fields in try rows(of: "places.tsv.gz", columns: 8) {
            let index = add(GeoFeature(kind: .city, name: String(fields[1]), latitude: Double(fields[2]) ?? 0,
                                       longitude: Double(fields[3]) ?? 0, countryCode: String(fields[4]),
                                       admin1Code: String(fields[5]), population: Int(fields[6]) ?? 0), name: fields[1])
            if let id = Int(fields[0]) { placeByGeonameID[id] = index }
            for alternate in fields[7].split(separator: "|") where Self.isUsableAlternate(alternate) {
                addName(alternate, feature: index, match: .alternate)
            }
        }
    }

    /// alias, target (`country:CC`, `region:CC.ADMIN1`, `place:GEONAMEID`).
    private mutating func readAliases() throws {
        for line in try lines(of: "aliases.tsv") {
            let fields = line.split(separator: "\t")
            guard fields.count == 2 else { throw LoadError(file: "aliases.tsv", reason: "bad line: \(line)") }
            let target = fields[1].split(separator: ":", maxSplits: 1)
            let feature: Int? = switch target.first {
            case "country": countryByCode[String(target[1])]
            case "region": regionByCode[String(target[1])]
            case "place": Int(target[1]).flatMap { placeByGeonameID[$0] }
            default: nil
            }
            guard let feature else { throw LoadError(file: "aliases.tsv", reason: "unknown target \(fields[1])") }
            addName(fields[0], feature: feature, match: .primary)
        }
    }

    /// zip, latitude, longitude, city, state.
    private func readZips() throws -> [String: Gazetteer.ZipCentroid] {
        var zips: [String: Gazetteer.ZipCentroid] = [:]
        for fields in try rows(of: "zips.tsv.gz", columns: 5) {
            zips[String(fields[0])] = Gazetteer.ZipCentroid(
                latitude: Double(fields[1]) ?? 0, longitude: Double(fields[2]) ?? 0, city: String(fields[3]), state: String(fields[4]))
        }
        return zips
    }

    private mutating func add(_ feature: GeoFeature, name: Substring) -> Int {
        features.append(feature)
        addName(name, feature: features.count - 1, match: .primary)
        return features.count - 1
    }

    private mutating func addName(_ name: Substring, feature: Int, match: NameIndex.Match) {
        TextNormalizer.normalize(name, into: &scratch)
        names.add(normalized: scratch, feature: feature, match: match)
    }

    private static let regionTypeWords: Set<String> = [
        "region", "province", "governorate", "district", "prefecture", "state", "county", "department",
        "oblast", "krai", "voivodeship", "municipality", "territory", "emirate", "muhafazah", "division",
    ]
    private static let articles: Set<String> = ["al", "ar", "as", "ash", "ad", "an", "el", "az"]

    /// "Al-Qassim Region" is typed "Qassim" or "Al Qassim": region names without their type word
    /// and without a leading Arabic article.
    static func shortRegionNames(_ name: Substring) -> [String] {
        var words = TextNormalizer.normalize(name).split(separator: " ").map(String.init)
        var variants: [String] = []
        if words.count > 1, let last = words.last, regionTypeWords.contains(last) {
            words.removeLast()
            variants.append(words.joined(separator: " "))
        }
        if words.count > 1, articles.contains(words[0]) {
            variants.append(words.dropFirst().joined(separator: " "))
        }
        return variants
    }

    /// GeoNames lists airport codes ("SEA" for Seattle, "ABC" for Albacete), postal variants and
    /// links among alternate names: none of them is a name a student types for a town.
    static func isUsableAlternate(_ name: Substring) -> Bool {
        let bytes = name.utf8
        if bytes.count <= 4, bytes.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) { return false }
        if bytes.contains(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { return false }
        if name.hasPrefix("http") { return false }
        return bytes.count >= 3 || bytes.contains { $0 >= 0x80 }
    }

    /// The tab-separated rows of a gzipped file, each with exactly `columns` fields.
    private func rows(of file: String, columns: Int) throws -> [[Substring]] {
        let text = try gunzip(file)
        var rows: [[Substring]] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == columns else { throw LoadError(file: file, reason: "a row has \(fields.count) fields, not \(columns)") }
            rows.append(fields)
        }
        return rows
    }

    /// The non-comment, non-empty lines of a plain text file.
    private func lines(of file: String) throws -> [Substring] {
        let url = directory.appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw LoadError(file: url.path, reason: "not readable") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
    }

    private func gunzip(_ file: String) throws -> String {
        let url = directory.appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw LoadError(file: url.path, reason: "not readable") }
        var buffer = ByteBuffer(bytes: data)
        do {
            let text = try buffer.decompress(with: .gzip())
            return String(buffer: text)
        } catch {
            throw LoadError(file: url.path, reason: "not valid gzip (\(error))")
        }
    }
}
