/// Russian writes a place in the case its sentence asks for: "в Москве", "из Казани", "под
/// Москвой", "в Новосибирске". The gazetteer holds the nominative (Москва, Казань, Новосибирск), so a
/// Cyrillic word that names nothing as typed is tried without its case ending, with the nominative
/// endings a stem can take. A form is accepted only when it is a place's name, so an ordinary word
/// stays as it was. Works on normalized text, where й is folded to и.
enum CyrillicCases {
    /// `words` with its last word in the nominative, when that names a place; nil otherwise.
    static func nominative(of words: [[UInt8]], isName: ([UInt8]) -> Bool) -> [[UInt8]]? {
        guard let last = words.last, last.first.map({ $0 == 0xD0 || $0 == 0xD1 }) == true else { return nil }
        for ending in endings where last.count > ending.count + 4 && last.ends(with: ending) {
            let stem = Array(last.dropLast(ending.count))
            for nominative in nominatives {
                var candidate = words
                candidate[candidate.count - 1] = stem + nominative
                if isName(Array(candidate.joined(separator: [UInt8(ascii: " ")]))) { return candidate }
            }
        }
        return nil
    }

    /// Case endings, longest first (instrumental, prepositional, genitive, dative, accusative).
    private static let endings: [[UInt8]] = ["ои", "ою", "ом", "ем", "е", "у", "ю", "ы", "и", "а", "я"].map { Array($0.utf8) }
    /// What a stem ends with in the nominative: nothing (Новосибирск), а (Москва), ь (Казань), я (Россия).
    private static let nominatives: [[UInt8]] = ["", "а", "ь", "я"].map { Array($0.utf8) }
}
