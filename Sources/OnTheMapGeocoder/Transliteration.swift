import Foundation

/// The last resort for a name written in a way the gazetteer has no entry for, through ICU's
/// transforms (Foundation's `applyingTransform`), used only when nothing answered as written since
/// each costs tens of microseconds: Chinese in the other set of characters ("纽约" is listed as
/// "紐約"), then the name's sound in Latin letters ("వరంగల్" is Warangal, "桃園" Taoyuan), to be
/// matched against the Latin names, exactly or within a typo.
enum Transliteration {
    /// `part` (normalized) in Traditional Chinese characters if it is in Simplified, and the other
    /// way; nil when that changes nothing.
    static func otherChinese(_ part: [UInt8]) -> [UInt8]? {
        let text = String(decoding: part, as: UTF8.self)
        guard text.unicodeScalars.contains(where: isHan) else { return nil }
        for transform in ["Hans-Hant", "Hant-Hans"] {
            if let other = text.applyingTransform(StringTransform(rawValue: transform), reverse: false), other != text {
                return Array(other.utf8)
            }
        }
        return nil
    }

    /// `part` (normalized) in Latin letters, normalized again; nil when it holds nothing to
    /// transliterate (Latin, digits). Chinese is read in pinyin with its syllables joined, as the
    /// Latin names write them ("tao yuan" → "taoyuan").
    static func latin(_ part: [UInt8]) -> [UInt8]? {
        let text = String(decoding: part, as: UTF8.self)
        guard text.unicodeScalars.contains(where: { isTransliterable($0) || isHan($0) }) else { return nil }
        guard var latin = text.applyingTransform(.toLatin, reverse: false) else { return nil }
        if text.unicodeScalars.allSatisfy(isHan) { latin.removeAll { $0 == " " } }
        // Indic scripts write a consonant with its vowel "a" unless marked: ICU keeps the "a" that
        // speakers drop at the end of a word ("rajakota" is Rajkot).
        if let last = text.unicodeScalars.last, isIndicConsonant(last), latin.hasSuffix("a") { latin.removeLast() }
        let folded = latin.applyingTransform(.stripDiacritics, reverse: false) ?? latin
        let normalized = Array(TextNormalizer.normalize(folded).utf8)
        return normalized.isEmpty || normalized == part || normalized.contains(where: { $0 >= 0x80 }) ? nil : normalized
    }

    /// Letters of scripts with a useful Latin reading: Greek to Ethiopic, Indic, Southeast Asian,
    /// Georgian, Hangul and kana; not Latin, not Han.
    private static func isTransliterable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0370...0x1FFF: scalar.properties.isAlphabetic && !(0x1E00...0x1EFF).contains(scalar.value)
        case 0x3040...0x30FF, 0xAC00...0xD7AF: true
        default: false
        }
    }

    /// Whether a sounded-out name may also be a typo away from the place: only for scripts whose
    /// names GeoNames often lacks or spells otherwise (Indic, Thai, Lao, Burmese, Khmer, kana), and
    /// from six letters. Elsewhere an ordinary word would too often sound like a town ("работа",
    /// work, is one letter from Rabat; "ሰላም", hello, from Şaḩam).
    static func allowsTypo(from part: [UInt8], latin: [UInt8]) -> Bool {
        latin.count >= 6 && String(decoding: part, as: UTF8.self).unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0900...0x0DFF, 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF: true
            default: false
            }
        }
    }

    private static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value)
    }

    /// Devanagari to Malayalam (U+0915–0939 and the same offsets in each Indic block).
    private static func isIndicConsonant(_ scalar: Unicode.Scalar) -> Bool {
        guard (0x0900...0x0D7F).contains(scalar.value) else { return false }
        return (0x15...0x39).contains(scalar.value & 0x7F)
    }
}
