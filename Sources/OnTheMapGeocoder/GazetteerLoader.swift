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
    private var typos = TypoIndex.Builder()
    private var countryByCode: [String: Int] = [:]
    private var regionByCode: [String: Int] = [:]
    private var bounds: [Int: GeoBounds] = [:]
    private var placeByGeonameID: [Int: Int] = [:]
    private var aliases: [(alias: String, feature: Int)] = []
    private var timeZoneIdentifiers: [String] = []
    private var timeZoneOfFeature: [UInt16] = []
    private var scratch: [UInt8] = []

    init(directory: URL) { self.directory = directory }

    consuming func load() throws -> Gazetteer {
        names.reserve(1_300_000)
        try readCountries()
        try readRegions()
        try readPlaces()
        try readAreas()
        try readAliases()
        let stopwords = try Set(lines(of: "stopwords.txt").map { Array(TextNormalizer.normalize($0).utf8) })
        let reader = try ContextReader(lines: lines(of: "reader.tsv"))
        let built = (names: names.build(), typos: typos.build())
        // Read once the name index is built: its sort is the load's peak, and the postcode file's
        // buffer then reuses memory the sort freed.
        let postcodes = try readPostcodes()
        let timeZones = CityTimeZones(identifiers: timeZoneIdentifiers, zoneOfFeature: timeZoneOfFeature)
        return Gazetteer(features: features, names: built.names, typos: built.typos, countryByCode: countryByCode,
                         regionByCode: regionByCode, bounds: bounds, postcodes: postcodes, stopwords: stopwords,
                         aliases: aliases, reader: reader, timeZones: timeZones)
    }

    /// country, name, latitude, longitude, population, other names, box.
    private mutating func readCountries() throws {
        try forEachRow(of: "countries.tsv.gz", columns: 7) { row in
            let code = row.string(0)
            let index = add(GeoFeature(kind: .country, name: row.string(1), latitude: row.double(2), longitude: row.double(3),
                                       countryCode: code, admin1Code: "", population: row.int(4)), name: row.bytes(1))
            countryByCode[code] = index
            bounds[index] = GeoBounds(field: row.string(6)[...])
            addName(row.bytes(0), feature: index, match: .code)
            row.forEachItem(5) { addName($0, feature: index, match: .alternate) }
        }
    }

    /// country, admin1 code, name, abbreviations, latitude, longitude, population, box, official names
    /// (ISO 3166-2's, in the region's own language: as good as its GeoNames name), other names (their
    /// translations, Natural Earth's names).
    private mutating func readRegions() throws {
        try forEachRow(of: "admin1.tsv.gz", columns: 10) { row in
            let name = row.string(2)
            let index = add(GeoFeature(kind: .region, name: name, latitude: row.double(4), longitude: row.double(5),
                                       countryCode: row.string(0), admin1Code: row.string(1), population: row.int(6)), name: row.bytes(2))
            regionByCode[row.string(0) + "." + row.string(1)] = index
            bounds[index] = GeoBounds(field: row.string(7)[...])
            row.forEachItem(3) { addName($0, feature: index, match: .code) }
            for variant in Self.shortRegionNames(name[...]) { addName(variant[...], feature: index, match: .alternate) }
            for (column, match) in [(8, NameIndex.Match.primary), (9, .alternate)] {
                row.forEachItem(column) { other in
                    addName(other, feature: index, match: match)
                    let text = String(decoding: other, as: UTF8.self)
                    for variant in Self.shortRegionNames(text[...]) { addName(variant[...], feature: index, match: .alternate) }
                }
            }
        }
    }

    /// geonameid, name, latitude, longitude, country, admin1 code, population, alternate names, time
    /// zone (a line of timezones.txt, counted from 0, or empty).
    private mutating func readPlaces() throws {
        timeZoneIdentifiers = try lines(of: "timezones.txt").map(String.init)
        // Countries and regions, read first, have no zone of their own.
        timeZoneOfFeature = Array(repeating: CityTimeZones.none, count: features.count)
        try forEachRow(of: "places.tsv.gz", columns: 9) { row in
            let index = add(GeoFeature(kind: .city, name: row.string(1), latitude: row.double(2), longitude: row.double(3),
                                       countryCode: row.string(4), admin1Code: row.string(5), population: row.int(6)), name: row.bytes(1))
            placeByGeonameID[row.int(0)] = index
            row.forEachItem(7) { alternate in
                if Self.isUsableAlternate(alternate) { addName(alternate, feature: index, match: .alternate) }
            }
            timeZoneOfFeature.append(try row.bytes(8).isEmpty ? CityTimeZones.none : timeZone(row.int(8)))
        }
    }

    /// A place's zone number, checked against timezones.txt: a number past its end means the two
    /// files are not of one build.
    private func timeZone(_ number: Int) throws -> UInt16 {
        guard timeZoneIdentifiers.indices.contains(number), number < CityTimeZones.none else {
            throw LoadError(file: "places.tsv.gz", reason: "time zone \(number) is not in timezones.txt (\(timeZoneIdentifiers.count) zones)")
        }
        return UInt16(number)
    }

    /// name, other names, country, admin1 code, latitude, longitude, box, population, source: every
    /// name is an alias (it means this area, whatever else has the name).
    private mutating func readAreas() throws {
        for line in try lines(of: "areas.tsv") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 9, let latitude = Double(fields[4]), let longitude = Double(fields[5]),
                  let box = GeoBounds(field: fields[6]), let population = Int(fields[7]) else {
                throw LoadError(file: "areas.tsv", reason: "bad line: \(line)")
            }
            features.append(GeoFeature(kind: .area, name: String(fields[0]), latitude: latitude, longitude: longitude,
                                       countryCode: String(fields[2]), admin1Code: String(fields[3]), population: population))
            let index = features.count - 1
            bounds[index] = box
            for name in [fields[0]] + fields[1].split(separator: "|") { addName(name, feature: index, match: .alias) }
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
            addName(fields[0], feature: feature, match: .alias)
            aliases.append((String(fields[0]), feature))
        }
    }

    /// country, code, latitude, longitude, place, admin1 code, estimated ("1" or empty); sorted by
    /// country, then code's letters and digits.
    private func readPostcodes() throws -> PostcodeTable {
        var table = PostcodeTable.Builder()
        let file = "postcodes.tsv.gz"
        // Neighbouring codes are mostly in one region: its lookup is kept for the next row.
        var lastRegion: (key: String, feature: Int?) = ("", nil)
        do {
            try forEachRow(of: file, columns: 7, sizing: { table.reserve($0) }) { row in
                let country = row.string(0)
                var region: Int?
                if !row.bytes(5).isEmpty {
                    let key = country + "." + row.string(5)
                    if key != lastRegion.key { lastRegion = (key, regionByCode[key]) }
                    region = lastRegion.feature
                }
                try table.add(country: country, code: row.bytes(1), latitude: row.double(2), longitude: row.double(3),
                              place: row.bytes(4), region: region, estimated: !row.bytes(6).isEmpty)
            }
        } catch let failure as PostcodeTable.Builder.Failure {
            throw LoadError(file: file, reason: "bad row (\(failure))")
        }
        return table.build()
    }

    private mutating func add(_ feature: GeoFeature, name: UnsafeBufferPointer<UInt8>) -> Int {
        features.append(feature)
        addName(name, feature: features.count - 1, match: .primary)
        return features.count - 1
    }

    private mutating func addName(_ name: UnsafeBufferPointer<UInt8>, feature: Int, match: NameIndex.Match) {
        TextNormalizer.normalize(utf8: name, into: &scratch)
        names.add(normalized: scratch, feature: feature, match: match)
        addTypoName(feature: feature, match: match)
    }

    /// Typos are forgiven only towards places worth guessing: towns of 15,000 or more by their own
    /// name, large cities and countries by their other names too, and every region.
    private mutating func addTypoName(feature: Int, match: NameIndex.Match) {
        guard match != .code else { return }
        let place = features[feature]
        let worthy = switch place.kind {
        case .country: true
        case .region, .area: match == .primary || match == .alias
        case .city: match == .primary || match == .alias ? place.population >= TypoIndex.minimumPopulation
                                      : place.population >= TypoIndex.alternatesFromPopulation
        }
        if worthy, scratch.allSatisfy({ $0 < 0x80 }) { typos.add(normalized: scratch, feature: feature) }
    }

    private mutating func addName(_ name: Substring, feature: Int, match: NameIndex.Match) {
        Array(name.utf8).withUnsafeBufferPointer { addName($0, feature: feature, match: match) }
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
    static func isUsableAlternate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.count <= 4, bytes.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) { return false }
        if bytes.contains(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { return false }
        if bytes.starts(with: "http".utf8) { return false }
        return bytes.count >= 3 || bytes.contains { $0 >= 0x80 }
    }

    /// Every row of a gzipped tab-separated file, each with exactly `columns` fields, decompressed
    /// a megabyte at a time: the whole text of places.tsv.gz or postcodes.tsv.gz would be 20 MB
    /// more at the load's peak. `sizing` is first told at most how many rows there can be (from
    /// gzip's size trailer), to reserve room once: arrays grown by doubling would hold two copies.
    private func forEachRow(of file: String, columns: Int, sizing: (Int) -> Void = { _ in },
                            _ body: (TSVReader.Row) throws -> Void) throws {
        var compressed = ByteBuffer(bytes: try contents(of: file))
        let mismatch = { (count: Int) in LoadError(file: file, reason: "a row has \(count) fields, not \(columns)") }
        guard compressed.readableBytes >= 18,
              let size = compressed.getInteger(at: compressed.writerIndex - 4, endianness: .little, as: UInt32.self) else {
            throw LoadError(file: directory.appendingPathComponent(file).path, reason: "not valid gzip (too short)")
        }
        sizing(Int(size) / (2 * columns))   // a field and its separator take two bytes at least
        let decompressor = CompressionAlgorithm.gzip().decompressor
        decompressor.window = ByteBufferAllocator().buffer(capacity: 1 << 20)
        var pending = ByteBuffer()
        var decompressed = 0
        do {
            try decompressor.startStream()
            try compressed.decompressStream(with: decompressor) { window in
                decompressed += window.readableBytes
                pending.writeImmutableBuffer(window)
                // The complete lines now, the last one's start for the next window.
                let complete = pending.withUnsafeReadableBytes { $0.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0 }
                guard complete > 0 else { return }
                try TSVReader(bytes: pending.readSlice(length: complete)!).forEachRow(columns: columns, mismatch: mismatch, body)
                pending.discardReadBytes()
            }
            try decompressor.finishStream()
        } catch let error as CompressNIOError {
            throw LoadError(file: directory.appendingPathComponent(file).path, reason: "not valid gzip (\(error))")
        }
        // A file cut short inflates without complaint as far as it goes: its size trailer tells.
        guard UInt32(truncatingIfNeeded: decompressed) == size else {
            throw LoadError(file: directory.appendingPathComponent(file).path,
                            reason: "not valid gzip (\(decompressed) bytes inflated, the trailer says \(size))")
        }
        try TSVReader(bytes: pending).forEachRow(columns: columns, mismatch: mismatch, body)
    }

    /// The non-comment, non-empty lines of a plain text file.
    private func lines(of file: String) throws -> [Substring] {
        String(decoding: try contents(of: file), as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
    }

    /// The text of a gzip file, decompressed into one buffer of its size: gzip's last four bytes give
    /// it (modulo 2^32), and guessing would allocate and copy as it grows.
    private func contents(of file: String) throws -> Data {
        let path = directory.appendingPathComponent(file).path
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError(file: path, reason: "not readable") }
        return data
    }
}
