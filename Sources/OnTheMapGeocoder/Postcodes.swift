/// Postcodes in normalized tokens ("sw1a 2aa", "k1a 0a9", "1012 js", "100 8111"), by country format.
///
/// A format only one country uses says which country the address is in; four, five or six digits
/// belong to many countries (a US ZIP, or a French, German, Australian, Indian… code): for those the
/// rest of the text must say which (Geocoder+Postcodes).
enum Postcodes {
    /// What was found in one part's tokens.
    struct Found {
        /// The first postcode's letters and digits ("sw1a2aa", "5300001").
        var code: [UInt8]?
        /// ISO country of a format only that country uses.
        var country: String?
        /// The first postcode is five digits written as one word.
        var isFiveDigits = false
        /// Whether any postcode was removed.
        var removedAny = false

        fileprivate mutating func note(_ tokens: ArraySlice<[UInt8]>, country: String?) {
            removedAny = true
            guard code == nil else { return }
            code = Array(tokens.joined())
            self.country = country
            isFiveDigits = tokens.count == 1 && code?.count == 5 && code?.allSatisfy(Postcodes.isDigit) == true
        }
    }

    /// Removes the postcodes from `tokens` and says what the first was. A number standing first
    /// before a street word ("1600 amphitheatre pkwy") is a house number, left for the street test.
    static func extract(from tokens: inout [[UInt8]]) -> Found {
        var found = Found()
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if isYear(token, after: index > 0 ? tokens[index - 1] : nil, before: next) {
                tokens.remove(at: index)
                continue
            }
            if let next, let format = pairFormat(token, next) {
                found.note(tokens[index...index + 1], country: format.country)
                tokens.removeSubrange(index...index + 1)
                continue
            }
            if let country = singleCountry(token) {
                found.note(tokens[index...index], country: country)
                tokens.remove(at: index)
                continue
            }
            if (4...6).contains(token.count), token.allSatisfy(isDigit), !(index == 0 && QueryParser.hasStreetWord(tokens)) {
                found.note(tokens[index...index], country: nil)
                tokens.remove(at: index)
                continue
            }
            index += 1
        }
        return found
    }

    /// "since 2019", "seit 2019", "desde 2019", "2019 से": a year beside a word of time is when the
    /// student came, not a postcode ("lebe seit 2019 in Basel" was 2019 Haarlem).
    private static func isYear(_ token: [UInt8], after previous: [UInt8]?, before next: [UInt8]?) -> Bool {
        guard token.count == 4, token.allSatisfy(isDigit), let year = Int(String(decoding: token, as: UTF8.self)),
              (1950...2039).contains(year) else { return false }
        return previous.map(yearWordsBefore.contains) == true || next.map(yearWordsAfter.contains) == true
    }

    private static let yearWordsBefore: Set<[UInt8]> = Set([
        "since", "in", "from", "seit", "ab", "desde", "em", "en", "depuis", "sejak", "tahun", "dal", "sinds", "с", "з", "منذ", "از",
    ].map { Array($0.utf8) })
    private static let yearWordsAfter: Set<[UInt8]> = Set(["से", "dan", "den", "ten", "tan", "年", "から", "beri"].map { Array($0.utf8) })

    /// A format written as two tokens, and the country when only one country writes its codes so.
    private struct PairFormat {
        let country: String?
        init(_ country: String?) { self.country = country }
    }

    private static func pairFormat(_ first: [UInt8], _ second: [UInt8]) -> PairFormat? {
        if isBritishOutward(first), matches(second, "9aa") { return PairFormat("GB") }
        if matches(first, "a9a"), matches(second, "9a9") { return PairFormat("CA") }
        if matches(first, "9999"), matches(second, "aa") { return PairFormat("NL") }
        if matches(first, "999"), matches(second, "9999") { return PairFormat("JP") }
        if matches(first, "99999"), matches(second, "999") { return PairFormat("BR") }
        if matches(first, "99"), matches(second, "999") { return PairFormat("PL") }
        if matches(first, "9999"), matches(second, "999") { return PairFormat("PT") }
        if isEircodeRoutingKey(first), second.count == 4, second.allSatisfy({ isDigit($0) || isLetter($0) }),
           second.contains(where: isLetter) { return PairFormat("IE") }
        // Sweden's "114 55" (Greece, Czechia and Slovakia write theirs so too).
        if matches(first, "999"), matches(second, "99") { return PairFormat(nil) }
        return nil
    }

    /// Formats written as one token ("k1a0a9", "1012js", Argentina's "c1043aab" and "x5000").
    private static func singleCountry(_ token: [UInt8]) -> String? {
        if matches(token, "a9a9a9") { return "CA" }
        if matches(token, "9999aa") { return "NL" }
        if matches(token, "a9999aaa") || matches(token, "a9999") { return "AR" }
        return nil
    }

    /// Ireland's Eircode areas: a letter and two digits ("D02"), or Dublin 6W.
    private static func isEircodeRoutingKey(_ token: [UInt8]) -> Bool {
        matches(token, "a99") || token == Array("d6w".utf8)
    }

    /// A9, A99, AA9, AA99, A9A, AA9A (SW1A, M1, EH1, CB2).
    private static func isBritishOutward(_ token: [UInt8]) -> Bool {
        ["a9", "a99", "aa9", "aa99", "a9a", "aa9a"].contains { matches(token, $0) }
    }

    /// `pattern`: 9 for a digit, a for a letter.
    private static func matches(_ token: [UInt8], _ pattern: StaticString) -> Bool {
        guard token.count == pattern.utf8CodeUnitCount else { return false }
        return pattern.withUTF8Buffer { shape in
            zip(token, shape).allSatisfy { byte, kind in kind == UInt8(ascii: "9") ? isDigit(byte) : isLetter(byte) }
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
}
