/// Postcodes in normalized tokens ("sw1a 2aa", "k1a 0a9", "1012 js", "100 8111"), by country format.
///
/// A format only one country uses says which country the address is in; five digits may be a US
/// ZIP or a French, German, Italian or Spanish code, and four or six digits belong to many
/// countries (Australia, Belgium, Switzerland, India, Russia…): those are set aside without a hint,
/// five digits kept as a ZIP to check against the rest of the text.
enum Postcodes {
    /// What was found in one part's tokens.
    struct Found {
        /// ISO country of a format only that country uses.
        var country: String?
        /// Five digits, perhaps a US ZIP.
        var fiveDigits: String?
        /// Whether any postcode was removed.
        var removedAny = false
    }

    /// Removes the postcodes from `tokens` and says what they were. A number standing first before
    /// a street word ("1600 amphitheatre pkwy") is a house number, left for the street test.
    static func extract(from tokens: inout [[UInt8]]) -> Found {
        var found = Found()
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if let next, let country = pairCountry(token, next) {
                found.country = found.country ?? country
                tokens.removeSubrange(index...index + 1)
                found.removedAny = true
                continue
            }
            if let country = singleCountry(token) {
                found.country = found.country ?? country
                tokens.remove(at: index)
                found.removedAny = true
                continue
            }
            if (4...6).contains(token.count), token.allSatisfy(isDigit), !(index == 0 && QueryParser.hasStreetWord(tokens)) {
                if token.count == 5 { found.fiveDigits = found.fiveDigits ?? String(decoding: token, as: UTF8.self) }
                tokens.remove(at: index)
                found.removedAny = true
                continue
            }
            index += 1
        }
        return found
    }

    /// Formats written as two tokens.
    private static func pairCountry(_ first: [UInt8], _ second: [UInt8]) -> String? {
        if isBritishOutward(first), matches(second, "9aa") { return "GB" }
        if matches(first, "a9a"), matches(second, "9a9") { return "CA" }
        if matches(first, "9999"), matches(second, "aa") { return "NL" }
        if matches(first, "999"), matches(second, "9999") { return "JP" }
        if matches(first, "99999"), matches(second, "999") { return "BR" }
        if matches(first, "99"), matches(second, "999") { return "PL" }
        if matches(first, "9999"), matches(second, "999") { return "PT" }
        return nil
    }

    /// Formats written as one token ("k1a0a9", "1012js").
    private static func singleCountry(_ token: [UInt8]) -> String? {
        if matches(token, "a9a9a9") { return "CA" }
        if matches(token, "9999aa") { return "NL" }
        return nil
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
