/// Every postcode of postcodes.tsv.gz (US ZIP codes and the countries of `make geodata`), as one
/// sorted array of packed keys beside arrays of points, place names and regions: about 24 bytes a
/// code, where a dictionary of strings would take over 100 for 300,000 codes. A lookup is a binary
/// search.
struct PostcodeTable: Sendable {
    /// Where a code is: what ranking needs, without building strings.
    struct Location {
        fileprivate let index: Int
        let country: String
        let latitude: Double
        let longitude: Double
        /// Its region's feature, when the gazetteer has it.
        let region: Int?
        /// The point is only an estimate (GeoNames' own or none, or one point given to many codes).
        let estimated: Bool
    }

    /// A code's row, for an answer.
    struct Entry {
        let location: Location
        /// As the country writes it ("490-1401", "SW1A", "75001").
        let code: String
        /// The place GeoNames (or the ZIP list) names for it ("Umeda", "Mountain View").
        let place: String
    }

    private let keys: [UInt64]
    /// Points in hundred-thousandths of a degree, as `make geodata` writes them (a Float would
    /// answer 48.85919952392578 for 48.8592).
    private let latitudes: [Int32]
    private let longitudes: [Int32]
    /// Where the code's one space or hyphen goes when written ("530-0001": 3 | hyphen); 0 for none.
    private let separators: [UInt8]
    /// Where each place name lies in `names`: start << 8 | length.
    private let placeSpans: [UInt32]
    private let names: [UInt8]
    private let regions: [Int32]
    private let estimates: [Bool]

    static let hyphen: UInt8 = 0x80
    static let scale = 100_000.0

    var count: Int { keys.count }

    /// The countries the table lists codes of, in order.
    let countries: [String]

    /// A typed code's row in `country` (its letters and digits, whatever the case), else that of the
    /// area it lies in where the data lists areas, not codes: Britain's outward code ("SW1A 2AA" →
    /// SW1A, else SW1), Canada's and Ireland's first three ("K1A"), the Netherlands' and Portugal's
    /// four digits; in Brazil, Japan and India, which number codes by area, the listed code at or
    /// below it in the same area.
    func find(_ code: [UInt8], in country: String) -> Location? {
        if let exact = location(country: country, code: code) { return exact }
        switch country {
        case "GB":
            var outward = Array(code.dropLast(3))
            if let found = location(country: country, code: outward) { return found }
            guard let last = outward.last, !(48...57).contains(last) else { return nil }   // SW1A → SW1, not M1 → M
            outward.removeLast()
            return location(country: country, code: outward)
        case "CA", "IE": return location(country: country, code: code.prefix(3))
        case "NL", "PT": return location(country: country, code: code.prefix(4))
        case "BR": return location(country: country, atOrBelow: code, samePrefix: 2)
        case "JP", "IN": return location(country: country, atOrBelow: code, samePrefix: 3)
        default: return nil
        }
    }

    /// The code's row in `country`, matched on its letters and digits whatever the case.
    func location(country: String, code: some Collection<UInt8>) -> Location? {
        guard let key = Self.key(country: country, code: code) else { return nil }
        let index = keys.lowerBound(of: key)
        guard index < keys.count, keys[index] == key else { return nil }
        return location(at: index, country: country)
    }

    /// The last code at or below `code` in `country` that starts with the same `prefix` letters and
    /// digits: where a country numbers its codes by area, the listed code of the area it falls in.
    func location(country: String, atOrBelow code: [UInt8], samePrefix prefix: Int) -> Location? {
        guard let key = Self.key(country: country, code: code) else { return nil }
        var index = keys.lowerBound(of: key)
        if index == keys.count || keys[index] != key { index -= 1 }
        guard index >= 0, keys[index] >> Self.codeBits == key >> Self.codeBits,
              Self.characters(of: keys[index]).prefix(prefix).elementsEqual(Self.alphanumerics(code).prefix(prefix)) else { return nil }
        return location(at: index, country: country)
    }

    private func location(at index: Int, country: String) -> Location {
        Location(index: index, country: country, latitude: Double(latitudes[index]) / Self.scale, longitude: Double(longitudes[index]) / Self.scale,
                 region: regions[index] >= 0 ? Int(regions[index]) : nil, estimated: estimates[index])
    }

    /// The code as written and its place's name.
    func entry(_ location: Location) -> Entry {
        let index = location.index
        let start = Int(placeSpans[index] >> 8)
        return Entry(location: location, code: Self.written(Self.characters(of: keys[index]), separator: separators[index]),
                     place: String(decoding: names[start..<start + Int(placeSpans[index] & 0xFF)], as: UTF8.self))
    }

    /// "5300001" and 3 | hyphen → "530-0001"; letters in capitals ("SW1A").
    private static func written(_ characters: [UInt8], separator: UInt8) -> String {
        var bytes = characters.map { (97...122).contains($0) ? $0 - 32 : $0 }
        let position = Int(separator & 0x7F)
        if position > 0, position < bytes.count {
            bytes.insert(separator & hyphen != 0 ? UInt8(ascii: "-") : UInt8(ascii: " "), at: position)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Keys

    /// A code's letters and digits in base 37 (0 pads, 1–10 digits, 11–36 letters), most
    /// significant first: ten at most, in 53 bits. The country's two letters take the 10 above.
    /// Keys sort as (country, code) sort as text, so a file sorted so needs no sorting here.
    static let codeBits: UInt64 = 53
    static let longestCode = 10

    static func key(country: String, code: some Collection<UInt8>) -> UInt64? {
        var letters: UInt64 = 0
        var count = 0
        for letter in country.utf8 {
            guard (65...90).contains(letter), count < 2 else { return nil }
            letters = letters * 26 + UInt64(letter - 65)
            count += 1
        }
        guard count == 2 else { return nil }
        var value: UInt64 = 0
        var length = 0
        for byte in code where isAlphanumeric(byte) {
            length += 1
            guard length <= longestCode else { return nil }
            let folded = (65...90).contains(byte) ? byte + 32 : byte
            value = value * 37 + (folded <= 57 ? UInt64(folded - 47) : UInt64(folded - 86))
        }
        guard length > 0 else { return nil }
        for _ in length..<longestCode { value *= 37 }
        return letters << codeBits | value
    }

    /// A key's code, back as lower-case letters and digits.
    static func characters(of key: UInt64) -> [UInt8] {
        var value = key & (1 << codeBits - 1)
        var characters: [UInt8] = []
        for _ in 0..<longestCode {
            let digit = UInt8(value % 37)
            value /= 37
            if digit > 0 { characters.append(digit <= 10 ? digit + 47 : digit + 86) }
        }
        return characters.reversed()
    }

    /// The letters (folded to lower case) and digits of a code, without spaces or hyphens.
    static func alphanumerics(_ code: some Collection<UInt8>) -> [UInt8] {
        code.compactMap { byte in isAlphanumeric(byte) ? (byte >= 65 && byte <= 90 ? byte + 32 : byte) : nil }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }

    // MARK: Building

    /// Takes rows in key order (as `make geodata` writes them) straight into the table's arrays.
    struct Builder {
        private var keys: [UInt64] = []
        private var latitudes: [Int32] = []
        private var longitudes: [Int32] = []
        private var separators: [UInt8] = []
        private var placeSpans: [UInt32] = []
        private var names: [UInt8] = []
        private var regions: [Int32] = []
        private var estimates: [Bool] = []

        enum Failure: Error { case badCountry, badCode(String), badPoint(String), outOfOrder(String), tooLong }

        mutating func reserve(_ count: Int) {
            keys.reserveCapacity(count)
            latitudes.reserveCapacity(count)
            longitudes.reserveCapacity(count)
            separators.reserveCapacity(count)
            placeSpans.reserveCapacity(count)
            regions.reserveCapacity(count)
            estimates.reserveCapacity(count)
        }

        mutating func add(country: String, code: UnsafeBufferPointer<UInt8>, latitude: Double, longitude: Double,
                          place: UnsafeBufferPointer<UInt8>, region: Int?, estimated: Bool) throws {
            guard country.utf8.count == 2 else { throw Failure.badCountry }
            guard let key = PostcodeTable.key(country: country, code: code),
                  let separator = Self.separator(of: code) else { throw Failure.badCode(String(decoding: code, as: UTF8.self)) }
            if let last = keys.last, key <= last { throw Failure.outOfOrder("\(country) \(String(decoding: code, as: UTF8.self))") }
            keys.append(key)
            guard abs(latitude) <= 90, abs(longitude) <= 180 else { throw Failure.badPoint(String(decoding: code, as: UTF8.self)) }
            latitudes.append(Int32((latitude * PostcodeTable.scale).rounded()))
            longitudes.append(Int32((longitude * PostcodeTable.scale).rounded()))
            separators.append(separator)
            placeSpans.append(try span(of: place))
            regions.append(Int32(region ?? -1))
            estimates.append(estimated)
        }

        /// Neighbouring codes often share their place ("London" for SW1E…SW1Y): stored once.
        private mutating func span(of place: UnsafeBufferPointer<UInt8>) throws -> UInt32 {
            if let last = placeSpans.last {
                let start = Int(last >> 8)
                if names[start..<start + Int(last & 0xFF)].elementsEqual(place) { return last }
            }
            guard place.count <= 0xFF, names.count + place.count < 1 << 24 else { throw Failure.tooLong }
            defer { names.append(contentsOf: place) }
            return UInt32(names.count) << 8 | UInt32(place.count)
        }

        /// Letters and digits with at most one space or hyphen inside: its place and kind.
        private static func separator(of code: UnsafeBufferPointer<UInt8>) -> UInt8? {
            var separator: UInt8 = 0
            for (index, byte) in code.enumerated() where !PostcodeTable.isAlphanumeric(byte) {
                guard separator == 0, index > 0, index < min(code.count - 1, 0x7F),
                      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") else { return nil }
                separator = UInt8(index) | (byte == UInt8(ascii: "-") ? PostcodeTable.hyphen : 0)
            }
            return separator
        }

        mutating func build() -> PostcodeTable {
            defer { self = Builder() }
            var countries: [String] = []
            var country: UInt64?
            for key in keys where key >> PostcodeTable.codeBits != country {
                let letters = key >> PostcodeTable.codeBits
                country = letters
                countries.append(String(decoding: [UInt8(letters / 26) + 65, UInt8(letters % 26) + 65], as: UTF8.self))
            }
            return PostcodeTable(keys: keys, latitudes: latitudes, longitudes: longitudes, separators: separators,
                                 placeSpans: placeSpans, names: names, regions: regions, estimates: estimates, countries: countries)
        }
    }
}
