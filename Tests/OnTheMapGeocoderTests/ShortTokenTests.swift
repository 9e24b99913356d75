@testable import OnTheMapGeocoder
import Testing

/// Issue 27, item 3: a short or code-like token alone never answers by chance. Every two- and
/// three-letter word is tried: it may name a country, a region or an area (by name or code), a
/// town by its own name, or a town by a hand-kept alias ("KL", "BKK"); never a typo's guess, never
/// a town by one of its many other names ("bin" is listed for Vienna, "chi" for Jizhou).
@Suite struct ShortTokenTests {
    static let tokens: [String] = {
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let two = letters.flatMap { first in letters.map { first + $0 } }
        return two + two.flatMap { pair in letters.map { pair + $0 } }
    }()

    @Test func noShortTokenAnswersByChance() {
        let gazetteer = Shared.geocoder.gazetteer
        let aliases = Set(gazetteer.aliases.map { TextNormalizer.normalize($0.alias) })
        var byChance: [String] = []
        for token in Self.tokens {
            let answer = Shared.geocoder.lookup(token, limit: 1)
            guard let best = answer.results.first else { continue }
            let ownName = TextNormalizer.normalize(best.name.prefix { $0 != "," })
            let normalized = TextNormalizer.normalize(token)
            if answer.doubts.contains(.typo) || (best.accuracy == .city && ownName != normalized && !aliases.contains(normalized)) {
                byChance.append("\(token) → \(best.name)")
            }
        }
        #expect(byChance.isEmpty, "\(byChance.count): \(byChance.prefix(20).joined(separator: "; "))")
    }
}
