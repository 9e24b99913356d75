/// A query taken apart: raw coordinates, a postcode, and the normalized parts that remain, in the
/// order typed ("Gladwyne, Lower Merion, PA" → ["gladwyne", "lower merion", "pa"]).
struct ParsedQuery {
    /// The first postcode typed: its letters and digits, and the country its format names, if only
    /// one country writes codes so ("SW1A 2AA" → GB; five digits could be a US ZIP or a French,
    /// German, Italian, Spanish… code: Geocoder decides).
    struct Postcode {
        let code: [UInt8]
        let country: String?
        /// Five digits written as one word: perhaps a US ZIP ("190 45" is Swedish).
        let isFiveDigits: Bool
    }

    var coordinates: (latitude: Double, longitude: Double)?
    var postcode: Postcode?
    var parts: [[UInt8]] = []
    /// A street part ("1600 Amphitheatre Pkwy", "Friedrichstraße 43") was dropped: the input was an address.
    var hadStreet = false
    /// The words of the street parts, for a town written after the street without a comma
    /// ("strobelallee 50 dortmund") or a city first ("서울특별시 종로구 사직로 161").
    var streets: [[[UInt8]]] = []
    /// A postcode was dropped.
    var hadPostcode = false
    /// The index of the first part typed after an arrow ("Lima → Quito"): where the student is now.
    var nowFrom: Int?
    /// The index of the part typed after a slash ("Kansas City / San Diego"): of two towns, the
    /// second is where the student is now, as after an arrow (decided by the geocoder, which knows
    /// whether both are towns: "Lyon / France" is one place).
    var slashBefore: Int?
    /// The one country whose script the text is written in: Hangul is Korea, kana Japan.
    var scriptCountry: String?
}

enum QueryParser {
    static func parse(_ text: String) -> ParsedQuery {
        var query = ParsedQuery()
        if let point = coordinates(in: text) {
            query.coordinates = point
            return query
        }
        var scratch: [UInt8] = []
        query.scriptCountry = scriptCountry(of: text)
        let split = split(text)
        let arrows = split.last?.arrowsBefore ?? 0
        for (rawPart, arrowsBefore, afterSlash) in split {
            // After the last arrow: where the student is now.
            if arrows > 0, arrowsBefore == arrows, query.nowFrom == nil { query.nowFrom = query.parts.count }
            if afterSlash, !query.parts.isEmpty { query.slashBefore = query.parts.count }
            TextNormalizer.normalize(rawPart, into: &scratch)
            var tokens = scratch.split(separator: UInt8(ascii: " ")).map(Array.init)
            let postcodes = Postcodes.extract(from: &tokens)
            if query.postcode == nil, let code = postcodes.code {
                query.postcode = ParsedQuery.Postcode(code: code, country: postcodes.country, isFiveDigits: postcodes.isFiveDigits)
            }
            query.hadPostcode = query.hadPostcode || postcodes.removedAny
            guard !tokens.isEmpty else { continue }
            if isStreet(tokens) {
                query.hadStreet = true
                query.streets.append(tokens)
                continue
            }
            if tokens.allSatisfy({ $0.allSatisfy(isDigit) }) { continue }
            query.parts.append(Array(tokens.joined(separator: [UInt8(ascii: " ")])))
        }
        return query
    }

    /// KR for Hangul, JP for kana, else nil (Han is written in China, Taiwan and Japan alike).
    static func scriptCountry(of text: String) -> String? {
        for scalar in text.unicodeScalars where scalar.value >= 0x1100 {
            switch scalar.value {
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return "KR"
            case 0x3040...0x30FF: return "JP"
            default: continue
            }
        }
        return nil
    }

    /// "22.4997, 88.3770", "(47.6, -122.3)", "47.6 -122.3": two decimal numbers in range.
    static func coordinates(in text: String) -> (latitude: Double, longitude: Double)? {
        let trimmed = text.trimming(" \t()[]")
        let numbers = trimmed.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " || $0 == "\t" })
        guard numbers.count == 2, numbers.contains(where: { $0.contains(".") }),
              let latitude = Double(numbers[0]), let longitude = Double(numbers[1]),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return (latitude, longitude)
    }

    /// Splits on , ; / | ( ) (and the full-width 、，；) line breaks, " - ", arrows, and on a dot
    /// between words ("Chicago.IL") but not inside abbreviations ("D.C.", "St.Louis"). Each part
    /// says how many arrows came before it ("Lima → Quito", "Lima -> Quito").
    static func split(_ text: String) -> [(part: Substring, arrowsBefore: Int, afterSlash: Bool)] {
        var parts: [(part: Substring, arrowsBefore: Int, afterSlash: Bool)] = []
        var afterSlash = false
        var start = text.startIndex
        var index = text.startIndex
        var wordLength = 0
        var arrowsBefore = 0
        while index < text.endIndex {
            let character = text[index]
            var next = text.index(after: index)
            var isBoundary = character.isASCII ? ",;/|()\n\r".contains(character) : wideBoundaries.contains(character)
            // "s/n", Spanish and Portuguese for "no number", is part of its street.
            if character == "/", wordLength == 1, next < text.endIndex, text[next].isLetter,
               text.index(after: next) == text.endIndex || !text[text.index(after: next)].isLetter {
                isBoundary = false
            }
            var isArrow = !character.isASCII && arrows.contains(character)
            if (character == "-" || character == "=") && next < text.endIndex && text[next] == ">" {
                isArrow = true
                next = text.index(after: next)
            }
            isBoundary = isBoundary || isArrow
            if character == "-", index > text.startIndex, text[text.index(before: index)] == " ", next < text.endIndex, text[next] == " " {
                isBoundary = true
            }
            if character == ".", wordLength >= 3, next < text.endIndex, text[next].isLetter,
               text[next...].prefix(while: \.isLetter).count >= 2 {
                isBoundary = true
            }
            if isBoundary {
                parts.append((text[start..<index], arrowsBefore, afterSlash))
                if isArrow { arrowsBefore += 1 }
                afterSlash = character == "/"
                start = next
            }
            wordLength = character.isLetter ? wordLength + 1 : 0
            index = next
        }
        parts.append((text[start...], arrowsBefore, afterSlash))
        return parts
    }

    private static let arrows: Set<Character> = ["→", "⇒", "⟶", "➡", "➔", "➜", "⇨", "➞"]
    private static let wideBoundaries: Set<Character> = ["、", "，", "；"]

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static let streetWords: Set<[UInt8]> = Set([
        "street", "avenue", "ave", "road", "rd", "boulevard", "blvd", "drive", "dr", "lane", "ln", "way", "parkway",
        "pkwy", "court", "ct", "place", "pl", "highway", "hwy", "terrace", "circle", "cir", "square", "sq", "strasse",
        "calle", "rue", "via", "apt", "suite", "unit",
        // Other languages' street words, written before the name ("Rue de Rivoli", "Piazza Navona").
        "avenida", "plaza", "paseo", "carrer", "rua", "praca", "largo", "viale", "piazza", "corso", "chemin",
        "allee", "platz", "ulica", "ul", "straat", "plein", "gracht", "kade", "laan",
        // "Main St" normalizes to "main saint"; no town name ends in Saint.
        "saint",
    ].map { Array($0.utf8) })

    /// Street names written as one word with their type ("Friedrichstrasse", "Keizersgracht").
    private static let streetSuffixes: [[UInt8]] = [
        "strasse", "str", "gasse", "weg", "platz", "allee", "damm", "ufer", "straat", "gracht", "laan", "plein",
        "vej", "gade", "gatan", "gata", "veien", "utca",
    ].map { Array($0.utf8) }

    /// Where an address's street ends in `tokens`: its last house number, or a street type written
    /// after the name ("strobelallee 50 | dortmund", "mg rd | bangalore"); nil when there is none.
    /// Types written before the name ("av | juarez") say nothing of where the name ends.
    static func streetEnd(_ tokens: [[UInt8]]) -> Int? {
        tokens.indices.last { index in
            let token = tokens[index]
            // "s n": "s/n", no number.
            let noNumber = token == [UInt8(ascii: "n")] && index > 0 && tokens[index - 1] == [UInt8(ascii: "s")]
            return token.first.map(isDigit) == true || noNumber || trailingStreetWords.contains(token)
                || streetSuffixes.contains { token.count > $0.count + 2 && token.ends(with: $0) }
        }
    }

    /// A street type written before the name, starting `tokens` ("place du capitole", "av paulista").
    static func startsWithStreetWord(_ tokens: [[UInt8]]) -> Bool {
        guard let first = tokens.first else { return false }
        return (streetWords.contains(first) || leadingStreetAbbreviations.contains(first)) && first != Array("saint".utf8)
    }

    private static let leadingStreetAbbreviations: Set<[UInt8]> = Set(["av", "avda", "avd", "pca", "pl"].map { Array($0.utf8) })

    private static let trailingStreetWords: Set<[UInt8]> = Set([
        "street", "avenue", "ave", "road", "rd", "boulevard", "blvd", "drive", "dr", "lane", "ln", "parkway", "pkwy",
        "highway", "hwy", "terrace", "strasse", "straat", "gracht", "laan",
    ].map { Array($0.utf8) })

    /// A street word anywhere but at the very start of the text's words, other than "saint".
    static func hasStreetWord(_ tokens: [[UInt8]]) -> Bool {
        tokens.dropFirst().contains { streetWords.contains($0) && $0 != Array("saint".utf8) }
    }

    /// An address's street part: a house number before words ("1 Infinite Loop"); words ending in a
    /// street type ("Main Street"); a street word or a one-word street name with a number
    /// ("Rue de Rivoli 99", "Friedrichstrasse 43"); two words or more ending in a house number
    /// ("Unter den Linden 77"; four digits or more are a postcode, already removed).
    static func isStreet(_ tokens: [[UInt8]]) -> Bool {
        guard tokens.count >= 2 else { return false }
        if let first = tokens.first, first.first.map(isDigit) == true, first.count <= 6 { return true }
        if let last = tokens.last, streetWords.contains(last) { return true }
        let hasNumber = tokens.contains { $0.first.map(isDigit) == true }
        if hasNumber, tokens.contains(where: { streetWords.contains($0) && $0 != Array("saint".utf8) }) { return true }
        if hasNumber, tokens.contains(where: { token in streetSuffixes.contains { token.count > $0.count + 2 && token.ends(with: $0) } }) {
            return true
        }
        // Two words and a number at least: "Paris 16e" is an arrondissement, not a street.
        if tokens.count >= 3, let last = tokens.last, isHouseNumber(last) { return true }
        return false
    }

    /// "1", "43", "221b": up to three digits, perhaps one letter after.
    private static func isHouseNumber(_ token: [UInt8]) -> Bool {
        let digits = token.prefix(while: isDigit)
        return (1...3).contains(digits.count) && token.count - digits.count <= 1
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix) }
}

extension StringProtocol {
    func trimming(_ set: String) -> Substring {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return Substring(slice)
    }
}
