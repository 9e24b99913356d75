/// Text that names no place whatever the gazetteer holds, answered with nothing before any lookup
/// (issue 27, item 6): a phone number is not a postcode, "¯\_(ツ)_/¯" is not Tsu, an e-mail address
/// is not its domain's town. Words that are junk only when alone ("Mars", "Narnia") are in
/// `stopwords.txt` instead, so that "Mars, PA" still answers.
enum JunkText {
    static func isJunk(_ text: String) -> Bool {
        if QueryParser.coordinates(in: text) != nil { return false }
        return isAddressOnTheInternet(text) || isPhoneNumber(text) || hasTooFewLetters(text)
    }

    /// "https://example.com", "www.udacity.com", "john@example.com".
    static func isAddressOnTheInternet(_ text: String) -> Bool {
        let lowered = text.lowercased()
        if lowered.contains("://") || lowered.hasPrefix("www.") { return true }
        guard let at = lowered.firstIndex(of: "@") else { return false }
        let domain = lowered[lowered.index(after: at)...]
        return lowered[..<at].contains { $0.isLetter || $0.isNumber } && domain.contains(".") && !domain.contains(" ")
    }

    /// "+1 (555) 123-4567", "555-123-4567", "+44 20 7946 0958": digits and the punctuation of phone
    /// numbers only, and more digits than any postcode has (ten), or a leading "+" or a bracketed
    /// area code. "123-4567" stays a Japanese postcode and "94043-1351" a ZIP+4.
    static func isPhoneNumber(_ text: String) -> Bool {
        let trimmed = text.trimming(" \t")
        guard trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || " -.()+/".contains($0)) }) else { return false }
        let digits = trimmed.filter(\.isNumber).count
        return digits >= 10 || (digits >= 7 && (trimmed.hasPrefix("+") || trimmed.contains("(")))
    }

    /// One letter or none in all, and no postcode's digits ("x", "ツ", "北", "😀", ":)"), or emoticon marks with no word of two
    /// letters ("o_O", "T_T", "(ಠ_ಠ)", "¯\_(ツ)_/¯"). Initials with dots ("L.A.", "D.C.") are words.
    static func hasTooFewLetters(_ text: String) -> Bool {
        let letters = text.filter(\.isLetter).count
        // (Digits are a postcode's: "94043", "100-0001".)
        if letters <= 1 { return text.filter(\.isNumber).count < 3 }
        guard text.contains(where: { emoticonMarks.contains($0) }) else { return false }
        let words = text.split(whereSeparator: { !$0.isLetter })
        return !words.contains { $0.count >= 2 }
    }

    private static let emoticonMarks: Set<Character> = ["_", "^", "°", "□", "︵", "┻", "━", "╯", "¯", "ω", "・", "‿", "≧", "≦", "﹏", ";"]
}
