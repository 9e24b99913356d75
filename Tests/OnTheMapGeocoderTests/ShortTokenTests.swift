@testable import OnTheMapGeocoder
import Testing

/// A short or code-like token alone never answers by chance. Every two- and
/// three-letter word is tried: it may name a country (by name or code), a region or an area by its
/// name, a region by its code where people write their region so ("WA", "NSW"), a town by its own
/// name or a hand-kept alias ("KL", "BKK"); never a typo's guess, never a town by one of its many
/// other names ("bin" is listed for Vienna, "chi" for Jizhou), never a region abroad by its code.
@Suite struct ShortTokenTests {
    static let tokens: [String] = {
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let two = letters.flatMap { first in letters.map { first + $0 } }
        return two + two.flatMap { pair in letters.map { pair + $0 } }
    }()

    @Test func noShortTokenAnswersByChance() {
        let gazetteer = Shared.geocoder.gazetteer
        var byChance: [String] = []
        for token in Self.tokens {
            let answer = Shared.geocoder.lookup(token, limit: 1)
            guard let best = answer.results.first else { continue }
            let ownName = TextNormalizer.normalize(best.name.prefix { $0 != "," })
            let normalized = TextNormalizer.normalize(token)
            // A hand-kept alias (aliases.tsv, areas.tsv) says what people mean by it.
            let handKept = gazetteer.names.hits(normalized: Array(normalized.utf8)).contains { $0.match == .alias }
            let byOtherName = ownName != normalized && !handKept
            // A subdivision code alone names a region only where people write their region so.
            let foreignCode = best.accuracy == .region && byOtherName && !Ranker.everydayCodeCountries.contains(best.countryCode)
            if answer.doubts.contains(.typo) || (best.accuracy == .city && byOtherName) || foreignCode {
                byChance.append("\(token) → \(best.name)")
            }
        }
        #expect(byChance.isEmpty, "\(byChance.count): \(byChance.prefix(20).joined(separator: "; "))")
    }
}
