/// The last resorts for a name written in a way the gazetteer has no entry for:
/// Chinese in the other set of characters, then the name's sound in Latin letters.
extension Geocoder {
    /// The candidates of `query` written otherwise, and whether they were sounded out; nil when no
    /// part could be written otherwise.
    func rankedInOtherWriting(_ query: ParsedQuery) -> (ranked: [Ranker.Candidate], soundedOut: Bool)? {
        var ranked: [Ranker.Candidate] = []
        var rewrote = false
        if let chinese = rewritten(query, by: Transliteration.otherChinese) {
            rewrote = true
            ranked = Ranker(gazetteer: gazetteer, query: chinese).rank()
            if !ranked.isEmpty { return (ranked, false) }
        }
        if let latin = rewritten(query, by: Transliteration.latin) {
            // Read by its sound: only places worth that guess, by their own name.
            let typos = zip(query.parts, latin.parts).allSatisfy { $0 == $1 || Transliteration.allowsTypo(from: $0, latin: $1) }
            ranked = Ranker(gazetteer: gazetteer, query: latin).rank().filter {
                let feature = gazetteer.features[$0.feature]
                return isWorthASoundedOutGuess(feature) && soundsLikeItsName(feature, latin.parts, typos: typos)
            }
            return (ranked, !ranked.isEmpty)
        }
        return rewrote ? (ranked, false) : nil
    }

    /// The query with its parts rewritten (in Latin letters, in the other Chinese characters); nil
    /// when none changed.
    private func rewritten(_ query: ParsedQuery, by rewrite: ([UInt8]) -> [UInt8]?) -> ParsedQuery? {
        let parts = query.parts.map { rewrite($0) ?? $0 }
        guard parts != query.parts else { return nil }
        var latin = query
        latin.parts = parts
        return latin
    }

    /// A sounded-out name must sound like the place's own name ("rajakot" and Rājkot), not like one
    /// of the many other names GeoNames lists ("rabota", "work" in Russian, is one for Rabat).
    private func soundsLikeItsName(_ feature: GeoFeature, _ parts: [[UInt8]], typos: Bool) -> Bool {
        let name = Array(TextNormalizer.normalize(feature.name).utf8)
        return parts.contains { part in
            part == name || (typos && TypoIndex.distance(part, name, limit: 2) <= (part.count >= 8 ? 2 : 1))
        }
    }

    /// Cities of 100,000 people or more, regions, countries and areas.
    private func isWorthASoundedOutGuess(_ feature: GeoFeature) -> Bool {
        feature.kind != .city || feature.population >= 100_000
    }
}
