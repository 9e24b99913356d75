/// How the geocoder reads a query before looking it up: the words around the place,
/// two places, an address's town in its street, and what the reader asks of the gazetteer.
extension Geocoder {
    /// Reads `query` in place: its parts become the places to look up. Two towns after a slash
    /// are where the student was and is; an address's town written in its street part
    /// ("strobelallee 50 dortmund, Germany") is looked up when no other part names a town
    /// ("18th and Valencia, San Francisco" is San Francisco).
    func read(_ query: inout ParsedQuery) -> ContextReader.Reading {
        if query.nowFrom == nil, query.slashBefore == 1, query.parts.count == 2, areTwoPlaces(query.parts[0], query.parts[1]) {
            query.nowFrom = 1
        }
        let reading = read(query)
        query.parts = reading.parts
        let words = placeWords
        if !query.streets.isEmpty, reading.parts.allSatisfy(words.isQualifier) {
            query.parts = query.streets.flatMap { gazetteer.reader.placesInAddress($0, words: words) } + reading.parts
        }
        return reading
    }

    /// The query's parts without the words around the place ("close to Lima" → "lima"). Names and
    /// stopwords keep their words ("Greater Sudbury", "home sweet home" is no Sweet Home).
    func read(_ query: ParsedQuery) -> ContextReader.Reading {
        gazetteer.reader.read(query.parts, nowFrom: query.nowFrom, words: placeWords)
    }

    /// What the reader asks of the gazetteer.
    var placeWords: PlaceWords {
        PlaceWords(
            isName: { words in
                gazetteer.names.contains(normalized: words) || gazetteer.stopwords.contains(words) || Ranker.isRegionOrCountryWord(words)
            },
            isPlace: isPlace,
            isQualifier: { words in
                Ranker.isRegionOrCountryWord(words) || gazetteer.names.hits(normalized: words).contains { gazetteer.features[$0.feature].kind != .city }
            })
    }

    /// "Kansas City / San Diego", "Oaxaca / Tegucigalpa": two places, neither a country nor the
    /// region the other lies in ("Lyon / France", "Austin / Texas" are one place).
    private func areTwoPlaces(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard isPlace(first), isPlace(second) else { return false }
        let firstHits = gazetteer.names.hits(normalized: first).map { gazetteer.features[$0.feature] }
        let secondHits = gazetteer.names.hits(normalized: second).map { gazetteer.features[$0.feature] }
        if (firstHits + secondHits).contains(where: { $0.kind == .country }) { return false }
        return !firstHits.contains { one in
            secondHits.contains { other in one.countryCode == other.countryCode && one.admin1Code == other.admin1Code }
        }
    }

    /// Words inside a sentence that a student would mean as their place: a country, a region, or a
    /// town of 15,000 people or more by its own name (or of 100,000 by another of its names), never
    /// a code, a stopword or a word of two letters.
    func isPlace(_ words: [UInt8]) -> Bool {
        guard words.count >= 3, !gazetteer.stopwords.contains(words) else { return false }
        return gazetteer.names.hits(normalized: words).contains { hit in
            let feature = gazetteer.features[hit.feature]
            switch (hit.match, feature.kind) {
            case (.code, _): return false
            case (_, .country), (_, .area), (.alias, _), (.primary, .region): return true
            case (.alternate, .region): return feature.population >= 1_000_000
            case (.primary, .city): return feature.population >= TypoIndex.minimumPopulation
            case (.alternate, .city): return feature.population >= 100_000
            }
        }
    }
}
