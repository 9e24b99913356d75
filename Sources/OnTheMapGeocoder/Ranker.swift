import Foundation

/// Scores every reading of a parsed query and ranks the features it could mean.
///
/// A reading picks one part as the subject (the place itself) and treats the others as qualifiers
/// ("Paris, TX": subject "paris", qualifier "tx"). Score = how the subject matched (own name >
/// other name) + a prior by type and population + what each qualifier says (agrees, contradicts,
/// unknown) − a small cost for a subject that is not the first part.
struct Ranker {
    let gazetteer: Gazetteer
    let query: ParsedQuery
    /// Where the query's postcode is in each country asked about, looked up once per country.
    private let postcodes = PostcodeMemo()

    init(gazetteer: Gazetteer, query: ParsedQuery) {
        self.gazetteer = gazetteer
        self.query = query
    }

    private final class PostcodeMemo {
        var byCountry: [String: PostcodeTable.Location?] = [:]
    }

    /// One way to read a part: which words are the subject, what they match, and the words left
    /// over as extra qualifiers.
    typealias Reading = (subject: [UInt8], hits: [NameIndex.Hit], extraQualifiers: [[UInt8]])

    struct Candidate: Equatable {
        let feature: Int
        let score: Double
        /// Found only by forgiving a typo.
        var typo = false
    }

    /// Countries whose people write their state or province by its code alone.
    static let everydayCodeCountries: Set<String> = ["US", "CA", "AU", "BR", "MX", "IN"]

    /// A town smaller than this is guessed from a typo only when the rest of the text agrees.
    static let typoTownPopulation = 100_000

    /// Below this nothing is answered: junk and badly contradicted readings.
    static let minimumScore = 60.0

    static let regionWords: Set<[UInt8]> = Set(["state", "province", "region", "prefecture", "oblast", "county"].map { Array($0.utf8) })
    static let countryWords: Set<[UInt8]> = [Array("country".utf8)]
    /// "state", "province", "country": said after a place's name.
    static func isRegionOrCountryWord(_ words: [UInt8]) -> Bool { regionWords.contains(words) || countryWords.contains(words) }
    static let articles: Set<[UInt8]> = Set(["al", "ar", "as", "ash", "ad", "an", "el", "az"].map { Array($0.utf8) })

    func rank() -> [Candidate] {
        // A query that is nothing but a code ("CA", "WA", "NSW") means the code: "CA" alone is
        // Canada, "WA" is not the town of Wa in Ghana. Countries outrank regions by their prior.
        if query.parts.count == 1, let only = query.parts.first, only.count <= 3, only.allSatisfy({ $0 < 0x80 }),
           !gazetteer.names.hits(normalized: only).contains(where: {
               $0.match == .alias || ($0.match != .code && gazetteer.features[$0.feature].kind != .city)
           }) {
            let coded = rank(codesAsSubjects: true, countries: true)
            if !coded.isEmpty { return coded }
        }
        let named = rank(codesAsSubjects: false)
        // Degrade: when no part names a place ("Gladwyne, Lower Merion, PA" with a village the
        // gazetteer lacks), a region given by its code may answer, at region precision.
        return named.isEmpty ? rank(codesAsSubjects: true) : named
    }

    private func rank(codesAsSubjects: Bool, countries: Bool = false) -> [Candidate] {
        var best: [Int: (score: Double, typo: Bool)] = [:]
        for (position, part) in query.parts.enumerated() {
            // Among several parts, two letters are a qualifier ("WA" in "Seatle, WA"), never the place.
            if !codesAsSubjects, query.parts.count > 1, part.count <= 2 { continue }
            var others = query.parts
            others.remove(at: position)
            // Words that are no place alone ("gotham city", "home sweet home") are not read as a
            // place plus a qualifier either.
            if others.isEmpty, gazetteer.stopwords.contains(part) { continue }
            for (reading, typo) in readings(of: part, codesAsSubjects: codesAsSubjects) {
                let qualifiers = (others + reading.extraQualifiers).map { QualifierHits(text: $0, gazetteer: gazetteer) }
                // An ordinary word that is also a town ("home") answers only with a qualifier.
                if qualifiers.isEmpty, gazetteer.stopwords.contains(reading.subject) { continue }
                for hit in reading.hits where (hit.match == .code) == codesAsSubjects {
                    guard let score = score(hit, reading: reading, typo: typo, position: position, qualifiers: qualifiers,
                                            countries: countries) else { continue }
                    if score > best[hit.feature]?.score ?? -.infinity { best[hit.feature] = (score, typo) }
                }
            }
        }
        return best.filter { $0.value.score >= Self.minimumScore }
            .map { Candidate(feature: $0.key, score: $0.value.score, typo: $0.value.typo) }
            .sorted {
                $0.score != $1.score ? $0.score > $1.score
                    : gazetteer.features[$0.feature].population > gazetteer.features[$1.feature].population
            }
    }

    /// The exact reading of a part, plus a typo reading when it matched nothing as written or only
    /// other names of small towns (GeoNames lists "Washinton" for Washington, Missouri).
    private func readings(of part: [UInt8], codesAsSubjects: Bool) -> [(reading: Reading, typo: Bool)] {
        if codesAsSubjects { return codeReading(part).map { [($0, false)] } ?? [] }
        var readings: [(reading: Reading, typo: Bool)] = []
        if let exact = subjectReading(part) { readings.append((exact, false)) }
        if readings.isEmpty || onlySmallAlternates(readings[0].reading.hits)
            || (query.parts.count > 1 && onlyVillages(readings[0].reading.hits)),
           let guessed = typoReading(part) {
            readings.append((guessed, true))
        }
        return readings
    }

    /// The score of one hit of one reading, or nil when the hit cannot stand as the subject.
    private func score(
        _ hit: NameIndex.Hit, reading: Reading, typo: Bool, position: Int, qualifiers: [QualifierHits], countries: Bool
    ) -> Double? {
        let feature = gazetteer.features[hit.feature]
        if hit.match == .code, feature.kind == .city || (feature.kind == .country && !countries) { return nil }
        // A subdivision code alone means a region only where people name their region so ("WA",
        // "NSW", "SP"); elsewhere it matches only after a place ("Milano MI", "Paris, TX").
        if hit.match == .code, feature.kind == .region, query.parts.count == 1, !Self.everydayCodeCountries.contains(feature.countryCode) {
            return nil
        }
        // Three letters matching another name of a place is chance, even of a big city ("bin" is
        // listed for Vienna, "chi" for Jizhou): a short word means a place by its own name, a code
        // or a hand-kept alias ("KL", "BKK").
        if hit.match == .alternate, !typo, reading.subject.count <= 3, reading.subject.allSatisfy({ $0 < 0x80 }) { return nil }
        // Another name of a village, typed alone, is more likely a word than the village: GeoNames
        // lists exonyms in many languages ("Mond", German for Moon, is a Danish hamlet's name).
        if hit.match == .alternate, !typo, qualifiers.isEmpty, query.postcode == nil, feature.kind == .city,
           feature.population < TypoIndex.minimumPopulation { return nil }
        // Typos are forgiven at a lower score.
        var score = (typo ? 70 : Self.matchScore(hit.match)) + Self.prior(feature) - 15 * Double(position)
        if feature.kind == .region, hasCityOfSameName(hit.feature, reading.hits) { score -= 25 }
        var agreed = false
        for qualifier in qualifiers {
            let said = qualifier.score(for: hit.feature, in: gazetteer, inAddress: query.hadStreet || query.hadPostcode)
            score += said
            if said > 0 { agreed = true }
        }
        // A typo is forgiven towards a town only when it is a likely answer: big enough to be meant
        // alone ("Saturn" is no Satun, "Westeros" no Westerlo), or named with its region or country.
        if typo, feature.kind == .city, feature.population < Self.typoTownPopulation, !agreed { return nil }
        if let postcode = query.postcode {
            // A postcode only one country writes that way ("CB2 1TN") says which Cambridge.
            if let country = postcode.country { score += feature.countryCode == country ? 20 : -20 }
            // A postcode listed where the reading is says which Saint-Denis ("93200 Saint-Denis" is
            // in France, not Réunion) and which Paris ("Paris 75460" is in Texas); a code whose point
            // is only an estimate, less which town ("Powai, Mumbai 400076" is Powai).
            if let location = postcodeLocation(for: hit.feature) { score += location.estimated ? 10 : 25 }
        }
        return score
    }

    /// "Manama", "Coimbra", "São Paulo", "Lisboa": when a region and a city inside it answer to the
    /// same name, people mean the city (they say "state" when they mean the region).
    private func hasCityOfSameName(_ region: Int, _ hits: [NameIndex.Hit]) -> Bool {
        let area = gazetteer.features[region]
        return hits.contains { hit in
            let other = gazetteer.features[hit.feature]
            guard other.kind == .city, other.countryCode == area.countryCode, other.admin1Code == area.admin1Code else { return false }
            // A city by its own name, or by another when it is the region's namesake ("Lisboa": Lisbon
            // in Lisbon District); not a village GeoNames also lists as "Montana", nor Salvador, once
            // called "Bahia".
            return hit.match == .primary || (hit.match == .alternate && isNamesake(city: other, of: area))
        }
    }

    /// "Lisbon" of "Lisbon", "Cairo" of "Cairo Governorate".
    private func isNamesake(city: GeoFeature, of region: GeoFeature) -> Bool {
        let name = TextNormalizer.normalize(city.name)
        return name == TextNormalizer.normalize(region.name) || GazetteerLoader.shortRegionNames(region.name[...]).contains(name)
    }

    /// How the subject matched: its own name, another name, a code.
    static func matchScore(_ match: NameIndex.Match) -> Double {
        switch match {
        // A hand-kept alias says what people mean by a name shared with others ("Washington").
        case .alias: 110
        case .primary: 100
        case .alternate: 80
        case .code: 70
        }
    }

    /// Countries and megacities first, then large cities, states and provinces, then smaller towns.
    static func prior(_ feature: GeoFeature) -> Double {
        switch feature.kind {
        case .country: 55
        // Regions range from parishes to California: by population, 35 (small) to 55 (huge).
        case .region, .area: min(55, max(35, 40 + 5 * log10(Double(max(feature.population, 1)) / 100_000)))
        case .city: min(60, 10 * log10(Double(max(feature.population, 1))) - 10)
        }
    }

    /// The subject's name and its hits: the whole part if it names something, else its longest
    /// leading words that do, with the rest as qualifiers ("palo alto ca" → "palo alto" + "ca"),
    /// but only when every word of the rest is a known qualifier ("my house" stays unanswered).
    private func subjectReading(_ part: [UInt8]) -> Reading? {
        let whole = gazetteer.names.hits(normalized: part)
        if whole.contains(where: { $0.match != .code }) { return (part, whole, []) }
        let tokens = part.split(separator: UInt8(ascii: " ")).map(Array.init)
        // "ar riffa", "al qassim": the Arabic article is often written where the gazetteer has none.
        if tokens.count > 1, Self.articles.contains(tokens[0]) {
            let bare = Array(tokens[1...].joined(separator: [UInt8(ascii: " ")]))
            let hits = gazetteer.names.hits(normalized: bare)
            if hits.contains(where: { $0.match != .code }) { return (bare, hits, []) }
        }
        guard tokens.count > 1 else { return nil }
        for cut in stride(from: tokens.count - 1, through: 1, by: -1) {
            let subject = Array(tokens[..<cut].joined(separator: [UInt8(ascii: " ")]))
            let hits = gazetteer.names.hits(normalized: subject)
            guard hits.contains(where: { $0.match != .code }) else { continue }
            let rest = Array(tokens[cut...].joined(separator: [UInt8(ascii: " ")]))
            if isQualifier(rest) { return (subject, hits, [rest]) }
            let words = Array(tokens[cut...])
            if words.allSatisfy(isQualifier) { return (subject, hits, words) }
        }
        // "Stockholm Arlanda Airport, 190 45": a postcode listed at the place the leading words name
        // vouches for them, whatever the words after.
        for cut in stride(from: tokens.count - 1, through: 1, by: -1) {
            let subject = Array(tokens[..<cut].joined(separator: [UInt8(ascii: " ")]))
            let hits = gazetteer.names.hits(normalized: subject).filter { $0.match != .code && postcodeLocation(for: $0.feature) != nil }
            if !hits.isEmpty { return (subject, hits, []) }
        }
        return nil
    }

    /// Where the query's postcode is, when it is listed at `feature`: a town near the code, its
    /// region or its country.
    private func postcodeLocation(for feature: Int) -> PostcodeTable.Location? {
        guard let postcode = query.postcode else { return nil }
        let country = gazetteer.features[feature].countryCode
        guard postcode.country ?? country == country else { return nil }
        let location: PostcodeTable.Location?
        if let known = postcodes.byCountry[country] {
            location = known
        } else {
            location = gazetteer.postcodes.find(postcode.code, in: country)
            postcodes.byCountry[country] = location
        }
        return location.flatMap { $0.agrees(with: feature, in: gazetteer) ? $0 : nil }
    }

    /// Exact hits that are only other names of towns under 100,000: maybe a misspelling GeoNames kept.
    private func onlySmallAlternates(_ hits: [NameIndex.Hit]) -> Bool {
        hits.allSatisfy { $0.match == .alternate && gazetteer.features[$0.feature].kind == .city
            && gazetteer.features[$0.feature].population < 100_000 }
    }

    /// Exact hits that are only villages (under 15,000 people): with the rest of the text to weigh
    /// them by, "Karchi, Pakistan" is a village's name elsewhere and a typo of Karachi. Alone,
    /// "Liiva" is the village.
    private func onlyVillages(_ hits: [NameIndex.Hit]) -> Bool {
        hits.allSatisfy { gazetteer.features[$0.feature].kind == .city && gazetteer.features[$0.feature].population < TypoIndex.minimumPopulation }
    }

    /// The places a part would name but for a typo.
    private func typoReading(_ part: [UInt8]) -> Reading? {
        let features = gazetteer.typos.features(near: part)
        return features.isEmpty ? nil : (part, features.map { NameIndex.Hit(feature: $0, match: .alternate) }, [])
    }

    /// A part that is a region's code ("pa"), as the subject of the degraded pass.
    private func codeReading(_ part: [UInt8]) -> Reading? {
        guard part.count >= 2 else { return nil }   // "n/a" is not Nampula (MZ-N)
        let hits = gazetteer.names.hits(normalized: part)
        return hits.contains(where: { $0.match == .code }) ? (part, hits, []) : nil
    }

    /// A region or country name or code, or a word such as "state".
    private func isQualifier(_ text: [UInt8]) -> Bool {
        if Self.isRegionOrCountryWord(text) { return true }
        return gazetteer.names.hits(normalized: text).contains { gazetteer.features[$0.feature].kind != .city }
    }
}
