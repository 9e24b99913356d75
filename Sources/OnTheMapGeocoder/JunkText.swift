/// Text that names no place whatever the gazetteer holds, answered with nothing before any
/// lookup: a phone number is not a postcode, "¯\_(ツ)_/¯" is not Tsu, an e-mail address
/// is not its domain's town. Words that are junk only when alone ("Mars", "Narnia") are in
/// `stopwords.txt` instead, so that "Mars, PA" still answers.
enum JunkText {
    /// Every query passes here, so the rules read bytes and scalars, never `Character`s.
    static func isJunk(_ text: String) -> Bool {
        isAddressOnTheInternet(text) || isPhoneNumber(text) || hasTooFewLetters(text)
    }

    /// "https://example.com", "www.udacity.com", "john@example.com".
    static func isAddressOnTheInternet(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        var recent: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var count = 0, userHasAlphanumeric = false, at = false, domainDot = false, domainSpace = false
        while let byte = bytes.next() {
            recent = (recent.1, recent.2, recent.3, byte)
            count += 1
            if count == 4, (recent.0 | 0x20, recent.1 | 0x20, recent.2 | 0x20, recent.3) == (0x77, 0x77, 0x77, 0x2E) { return true }  // "www."
            if recent.1 == UInt8(ascii: ":"), recent.2 == UInt8(ascii: "/"), recent.3 == UInt8(ascii: "/") { return true }  // "://"
            if at {
                domainDot = domainDot || byte == UInt8(ascii: ".")
                domainSpace = domainSpace || byte == UInt8(ascii: " ")
            } else if byte == UInt8(ascii: "@") {
                at = true
            } else {
                userHasAlphanumeric = userHasAlphanumeric || isASCIIAlphanumeric(byte)
            }
        }
        return at && userHasAlphanumeric && domainDot && !domainSpace
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
            if scalar.isASCII ? isASCIILetter(UInt8(scalar.value)) : scalar.properties.isAlphabetic {
                letters += 1
                run += 1
                longestRun = max(longestRun, run)
                continue
            }
            run = 0
            if scalar.isASCII ? (48...57).contains(scalar.value) : scalar.properties.numericType != nil { digits += 1 }
            if emoticonMarks.contains(scalar) { marks = true }
        }
        // (Digits are a postcode's: "94043", "100-0001".)
        if letters <= 1 { return digits < 3 }
        return marks && longestRun < 2
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static let emoticonMarks: Set<Unicode.Scalar> = ["_", "^", "°", "□", "︵", "┻", "━", "╯", "¯", "ω", "・", "‿", "≧", "≦", "﹏", ";"]
}
