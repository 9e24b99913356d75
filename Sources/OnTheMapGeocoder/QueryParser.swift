/// A query taken apart: raw coordinates, a US ZIP, and the normalized parts that remain, in the
/// order typed ("Gladwyne, Lower Merion, PA" → ["gladwyne", "lower merion", "pa"]).
struct ParsedQuery {
    var coordinates: (latitude: Double, longitude: Double)?
    var zip: String?
    var parts: [[UInt8]] = []
    /// A street part ("1600 Amphitheatre Pkwy") was dropped: the input was an address.
    var hadStreet = false
}

enum QueryParser {
    static func parse(_ text: String) -> ParsedQuery {
        var query = ParsedQuery()
        if let point = coordinates(in: text) {
            query.coordinates = point
            return query
        }
        var scratch: [UInt8] = []
        for rawPart in split(text) {
            TextNormalizer.normalize(rawPart, into: &scratch)
            var tokens = scratch.split(separator: UInt8(ascii: " ")).map(Array.init)
            if let zipIndex = tokens.firstIndex(where: isZip) {
                query.zip = query.zip ?? String(decoding: tokens[zipIndex].prefix(5), as: UTF8.self)
                tokens.remove(at: zipIndex)
            }
            guard !tokens.isEmpty else { continue }
            if isStreet(tokens) {
                query.hadStreet = true
                continue
            }
            if tokens.allSatisfy({ $0.allSatisfy(isDigit) }) { continue }
            query.parts.append(Array(tokens.joined(separator: [UInt8(ascii: " ")])))
        }
        return query
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

    /// Splits on , ; / | ( ) line breaks, " - ", and on a dot between words ("Chicago.IL") but not
    /// inside abbreviations ("D.C.", "St.Louis").
    static func split(_ text: String) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        var wordLength = 0
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            var isBoundary = ",;/|()\n\r".contains(character)
            if character == "-", index > text.startIndex, text[text.index(before: index)] == " ", next < text.endIndex, text[next] == " " {
                isBoundary = true
            }
            if character == ".", wordLength >= 3, next < text.endIndex, text[next].isLetter,
               text[next...].prefix(while: \.isLetter).count >= 2 {
                isBoundary = true
            }
            if isBoundary {
                parts.append(text[start..<index])
                start = next
            }
            wordLength = character.isLetter ? wordLength + 1 : 0
            index = next
        }
        parts.append(text[start...])
        return parts
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// 5 digits (a ZIP+4 is normalized to "94043 1351": its tail is then a bare number part).
    private static func isZip(_ token: [UInt8]) -> Bool { token.count == 5 && token.allSatisfy(isDigit) }

    private static let streetWords: Set<[UInt8]> = Set([
        "street", "avenue", "ave", "road", "rd", "boulevard", "blvd", "drive", "dr", "lane", "ln", "way", "parkway",
        "pkwy", "court", "ct", "place", "pl", "highway", "hwy", "terrace", "circle", "cir", "square", "sq", "strasse",
        "calle", "rue", "via", "apt", "suite", "unit",
        // "Main St" normalizes to "main saint"; no town name ends in Saint.
        "saint",
    ].map { Array($0.utf8) })

    /// A house number followed by words, or words ending in a street type ("Main Street").
    static func isStreet(_ tokens: [[UInt8]]) -> Bool {
        guard tokens.count >= 2 else { return false }
        if let first = tokens.first, first.first.map(isDigit) == true, first.count <= 6 { return true }
        if let last = tokens.last, streetWords.contains(last) { return true }
        return false
    }
}

extension StringProtocol {
    func trimming(_ set: String) -> Substring {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return Substring(slice)
    }
}
