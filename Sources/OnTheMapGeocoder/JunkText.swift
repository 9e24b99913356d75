/// Text that names no place whatever the gazetteer holds, answered with nothing before any lookup
/// (issue 27, item 6): a phone number is not a postcode, "¯\_(ツ)_/¯" is not Tsu, an e-mail address
/// is not its domain's town. Words that are junk only when alone ("Mars", "Narnia") are in
/// `stopwords.txt` instead, so that "Mars, PA" still answers.
enum JunkText {
    /// Every query passes here, so the rules read bytes and scalars, never `Character`s.
    static func isJunk(_ text: String) -> Bool {
        isAddressOnTheInternet(text) || isPhoneNumber(text) || hasTooFewLetters(text)
    }

    /// "https://example.com", "www.udacity.com", "john@example.com".
    static func isAddressOnTheInternet(_ text: String) -> Bool {
        let bytes = text.utf8
        if bytes.count >= 4, bytes.prefix(4).map({ $0 | 0x20 }).elementsEqual("www.".utf8) { return true }
        if bytes.firstRange(of: "://".utf8) != nil { return true }
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let user = bytes[..<at], domain = bytes[bytes.index(after: at)...]
        return user.contains { isASCIIAlphanumeric($0) } && domain.contains(UInt8(ascii: ".")) && !domain.contains(UInt8(ascii: " "))
    }

    /// "+1 (555) 123-4567", "555-123-4567", "+44 20 7946 0958": digits and the punctuation of phone
    /// numbers only, and more digits than any postcode has (ten), or a leading "+" or a bracketed
    /// area code. "123-4567" stays a Japanese postcode, "94043-1351" a ZIP+4, and "47.6 -122.3"
    /// coordinates.
    static func isPhoneNumber(_ text: String) -> Bool {
        var digits = 0, plus = false, bracket = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "+"): plus = true
            case UInt8(ascii: "("), UInt8(ascii: ")"): bracket = true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"): break
            default: return false
            }
        }
        guard digits >= 10 || (digits >= 7 && (plus || bracket)) else { return false }
        return QueryParser.coordinates(in: text) == nil
    }

    /// One letter or none in all, and no postcode's digits ("x", "ツ", "北", "😀", ":)"), or emoticon
    /// marks with no word of two letters ("o_O", "T_T", "(ಠ_ಠ)", "¯\_(ツ)_/¯"). Initials with dots
    /// ("L.A.", "D.C.") are words.
    static func hasTooFewLetters(_ text: String) -> Bool {
        var letters = 0, digits = 0, marks = false, run = 0, longestRun = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic {
                letters += 1
                run += 1
                longestRun = max(longestRun, run)
                continue
            }
            run = 0
            if scalar.properties.numericType != nil { digits += 1 }
            if emoticonMarks.contains(scalar) { marks = true }
        }
        // (Digits are a postcode's: "94043", "100-0001".)
        if letters <= 1 { return digits < 3 }
        return marks && longestRun < 2
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static let emoticonMarks: Set<Unicode.Scalar> = ["_", "^", "°", "□", "︵", "┻", "━", "╯", "¯", "ω", "・", "‿", "≧", "≦", "﹏", ";"]
}
