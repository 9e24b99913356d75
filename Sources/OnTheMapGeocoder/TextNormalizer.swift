import Foundation

/// The one normalization applied to gazetteer names and to queries alike, so that "São Paulo",
/// "SAO PAULO" and "sao-paulo" meet: lowercase; diacritics folded in Latin, Greek and Cyrillic
/// (plus ß, ł, ø, æ, œ, đ, ı, þ, which canonical decomposition leaves alone); punctuation to spaces;
/// apostrophes dropped, and with them an elided French or Italian article or preposition ("près
/// d'Orléans" is "pres orleans", "L'Aquila" "aquila"); St/Ft/Mt expanded; a leading "the" dropped. In the Indic scripts, the
/// spellings of one name meet: a nasal written as a consonant with a virama, as the anusvara or as
/// the candrabindu is the anusvara (इंदौर, इन्दौर), i and u short or long are short (बेंगलुरु,
/// बेङ्गलूरु), and the nukta is dropped. Other scripts are kept as they are
/// (transliterating 東京 would give "dong jing").
///
/// Works on UTF-8 bytes with a precomputed table per scalar: the gazetteer has about a million
/// names to normalize at start.
public enum TextNormalizer {
    /// The normalized text: tokens separated by single spaces; empty when nothing is left.
    public static func normalize(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        normalize(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the normalized UTF-8 bytes of `text` to `out` (which it clears first).
    public static func normalize(_ text: some StringProtocol, into out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ normalize(utf8: $0, into: &out) }) != nil { return }
        Array(text.utf8).withUnsafeBufferPointer { normalize(utf8: $0, into: &out) }
    }

    /// The same, from UTF-8 bytes (invalid sequences read as U+FFFD). ASCII, most of the data,
    /// goes through a 128-entry table without decoding.
    static func normalize(utf8 bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var tokenStart = 0
        var previousFoldsMarks = false
        var previousIndicNasal: Unicode.Scalar?
        var index = 0
        let table = FoldTable.shared
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                let mapped = table.ascii[Int(byte)]
                if mapped >= FoldTable.asciiText {
                    out.append(mapped)
                    previousFoldsMarks = true
                } else if mapped == FoldTable.asciiDrop {
                    dropElision(&out, tokenStart: tokenStart, before: bytes, at: index)
                } else if mapped == FoldTable.asciiSeparator {
                    finishToken(&out, start: &tokenStart)
                    previousFoldsMarks = false
                }
                continue
            }
            let scalar = decodeScalar(bytes, at: &index)
            let fold = table.fold(scalar)
            defer { previousIndicNasal = FoldTable.isIndicNasal(scalar) ? scalar : nil }
            switch fold.kind {
            case .virama:
                // न् before a consonant is the nasal written as ं.
                if let nasal = previousIndicNasal {
                    out.removeLast(3)
                    out.append(contentsOf: FoldTable.anusvara(of: nasal))
                } else {
                    out.append(contentsOf: fold.bytes)
                }
            case .separator:
                finishToken(&out, start: &tokenStart)
                previousFoldsMarks = false
            case .drop:
                if scalar == "\u{2019}" || scalar == "\u{2BC}" { dropElision(&out, tokenStart: tokenStart, before: bytes, at: index) }
                continue
            case .mark:
                // A combining mark after a Latin, Greek or Cyrillic letter is a diacritic: fold it
                // away; one on no letter at all (an emoji's variation selector in "jozi ❤️") too.
                if !previousFoldsMarks, out.count > tokenStart { out.append(contentsOf: fold.bytes) }
            case .text:
                out.append(contentsOf: fold.bytes)
                previousFoldsMarks = fold.foldsMarks
            }
        }
        finishToken(&out, start: &tokenStart)
        if out.last == UInt8(ascii: " ") { out.removeLast() }
        dropLeadingArticle(&out)
    }

    /// At an apostrophe: the token before it is dropped when it is an elided word ("d'", "l'",
    /// "dell'") and a letter follows.
    private static func dropElision(_ out: inout [UInt8], tokenStart: Int, before bytes: UnsafeBufferPointer<UInt8>, at index: Int) {
        guard index < bytes.count, bytes[index] >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index] | 0x20),
              out.count > tokenStart, out.count - tokenStart <= 4, elided.contains(Array(out[tokenStart...])) else { return }
        out.removeSubrange(tokenStart...)
    }

    private static let elided: Set<[UInt8]> = Set(["d", "l", "j", "n", "s", "qu", "dell", "nell", "dall", "sull", "all"].map { Array($0.utf8) })

    /// Decodes the multi-byte UTF-8 sequence at `index` and moves past it.
    private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Unicode.Scalar {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, index + length <= bytes.count else {
            index += 1
            return "\u{FFFD}"
        }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else {
                index += offset
                return "\u{FFFD}"
            }
            value = value << 6 | UInt32(next & 0x3F)
        }
        index += length
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// Ends the token that starts at `start`: expands abbreviations, then adds one space.
    private static func finishToken(_ out: inout [UInt8], start: inout Int) {
        guard out.count > start else { return }
        dropIndicWordEnd(&out, start: start)
        let token = out[start...]
        for (short, long) in expansions where token.elementsEqual(short) {
            out.replaceSubrange(start..., with: long)
            break
        }
        out.append(UInt8(ascii: " "))
        start = out.count
    }

    /// A word-final virama, and the final u the Dravidian scripts write where Hindi ends on a
    /// consonant, go: "హైదరాబాద్" and "హైదరాబాదు", "अहमदाबाद्" and "अहमदाबाद" meet.
    private static func dropIndicWordEnd(_ out: inout [UInt8], start: Int) {
        guard out.count - start >= 6, out[out.count - 3] == 0xE0 else { return }
        let scalar = (UInt32(out[out.count - 3] & 0x0F) << 12) | (UInt32(out[out.count - 2] & 0x3F) << 6) | UInt32(out[out.count - 1] & 0x3F)
        guard (0x0900...0x0D7F).contains(scalar) else { return }
        let offset = scalar & 0x7F
        if offset == 0x4D || (offset == 0x41 && scalar >= 0x0B80) { out.removeLast(3) }
    }

    private static let expansions: [([UInt8], [UInt8])] = [
        ("st", "saint"), ("ste", "sainte"), ("ft", "fort"), ("mt", "mount"),
    ].map { (Array($0.0.utf8), Array($0.1.utf8)) }

    private static let article = Array("the ".utf8)

    /// "The Hague" and "Hague" are one name; "The" alone stays.
    private static func dropLeadingArticle(_ out: inout [UInt8]) {
        if out.count > article.count, out.starts(with: article) { out.removeFirst(article.count) }
    }
}

/// How one Unicode scalar normalizes.
struct Fold: Sendable {
    enum Kind: UInt8, Sendable { case text, separator, drop, mark, virama }

    let kind: Kind
    /// UTF-8 of what the scalar becomes (for `.text`, and for `.mark` outside folding scripts).
    let bytes: [UInt8]
    /// Whether combining marks after this letter are diacritics to drop.
    let foldsMarks: Bool

    static let separator = Fold(kind: .separator, bytes: [], foldsMarks: false)
    static let drop = Fold(kind: .drop, bytes: [], foldsMarks: false)
}

/// Precomputed folds for every scalar below U+2000 (Latin, Greek, Cyrillic, Arabic, Indic… and
/// Latin Extended Additional) and for full-width ASCII; other scalars are judged by their category.
final class FoldTable: Sendable {
    static let shared = FoldTable()

    private let low: [Fold]
    /// ASCII in one byte each: the lowercase character, or `asciiSeparator`, or `asciiDrop`.
    let ascii: [UInt8]
    static let asciiSeparator: UInt8 = 0
    static let asciiDrop: UInt8 = 1
    static let asciiText: UInt8 = 2

    private init() {
        low = (0..<0x2000).map { FoldTable.compute(Unicode.Scalar($0) ?? " ") }
        ascii = low[0..<128].map { fold in
            switch fold.kind {
            case .text: fold.bytes[0]
            case .drop: FoldTable.asciiDrop
            default: FoldTable.asciiSeparator
            }
        }
    }

    func fold(_ scalar: Unicode.Scalar) -> Fold {
        let value = Int(scalar.value)
        if value < low.count { return low[value] }
        if (0xFF01...0xFF5E).contains(value), let ascii = Unicode.Scalar(value - 0xFEE0) { return low[Int(ascii.value)] }
        return FoldTable.compute(scalar)
    }

    /// Letters that canonical decomposition does not fold.
    private static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
        "đ": "d", "Đ": "d", "ı": "i", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d", "ħ": "h", "Ħ": "h", "ŧ": "t",
        "Ŧ": "t", "ŀ": "l", "Ŀ": "l", "ĸ": "k", "ŋ": "n", "Ŋ": "n", "ς": "σ",
    ]

    /// Apostrophes join ("O'Fallon" = "OFallon"); soft hyphens and zero-width joiners vanish.
    private static let dropped: Set<UInt32> = [0x27, 0x60, 0xB4, 0x2BB, 0x2BC, 0x2018, 0x2019, 0xAD, 0x200B, 0x200C, 0x200D, 0xFEFF]

    /// Offsets within each Indic block (Devanagari U+0900 to Malayalam U+0D7F, laid out alike).

    private static let indicLongVowels: [UInt32: UInt32] = [0x40: 0x3F, 0x42: 0x41, 0x08: 0x07, 0x0A: 0x09]
    private static let indicNasalConsonants: Set<UInt32> = [0x19, 0x1E, 0x23, 0x28, 0x2E]

    static func isIndicNasal(_ scalar: Unicode.Scalar) -> Bool {
        (0x0900...0x0D7F).contains(scalar.value) && indicNasalConsonants.contains(scalar.value & 0x7F)
    }

    /// The anusvara of the block `scalar` is in (U+0902 for Devanagari).
    static func anusvara(of scalar: Unicode.Scalar) -> [UInt8] {
        Array(String(Unicode.Scalar((scalar.value & ~0x7F) + 0x02) ?? scalar).utf8)
    }

    /// The Indic folds, or nil for other scalars.
    private static func indicFold(_ scalar: Unicode.Scalar) -> Fold? {
        guard (0x0900...0x0D7F).contains(scalar.value) else { return nil }
        let offset = scalar.value & 0x7F, block = scalar.value - offset
        if offset == 0x3C || scalar.value == 0x0A71 { return .drop }   // nukta; Gurmukhi's addak (doubling)
        // The candrabindu, and Gurmukhi's tippi, are the anusvara.
        if offset == 0x01 || scalar.value == 0x0A70 { return Fold(kind: .mark, bytes: anusvara(of: scalar), foldsMarks: false) }
        if offset == 0x4D { return Fold(kind: .virama, bytes: Array(String(scalar).utf8), foldsMarks: false) }
        if let short = indicLongVowels[offset], let folded = Unicode.Scalar(block + short) {
            let kind: Fold.Kind = offset >= 0x3E ? .mark : .text
            return Fold(kind: kind, bytes: Array(String(folded).utf8), foldsMarks: false)
        }
        return nil
    }

    static func compute(_ scalar: Unicode.Scalar) -> Fold {
        if dropped.contains(scalar.value) { return .drop }
        if let indic = indicFold(scalar) { return indic }
        if scalar.isASCII {
            let byte = UInt8(scalar.value)
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return Fold(kind: .text, bytes: [byte], foldsMarks: true)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                return Fold(kind: .text, bytes: [byte + 32], foldsMarks: true)
            default:
                return .separator
            }
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return Fold(kind: .mark, bytes: Array(String(scalar).utf8), foldsMarks: false)
        case .format:
            return .drop
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            let foldable = (0xC0...0x52F).contains(scalar.value) || (0x1E00...0x1FFF).contains(scalar.value)
            if let replacement = special[scalar] {
                return Fold(kind: .text, bytes: Array(replacement.utf8), foldsMarks: true)
            }
            var text = properties.lowercaseMapping
            if foldable {
                let base = text.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                    ![.nonspacingMark, .spacingMark, .enclosingMark].contains($0.properties.generalCategory)
                }
                text = String(String.UnicodeScalarView(base))
                if let first = text.unicodeScalars.first, let again = special[first] { text = again }
            }
            return Fold(kind: .text, bytes: Array(text.utf8), foldsMarks: foldable)
        default:
            return .separator
        }
    }
}
