import Foundation

/// Free text to points, offline. Thread-safe: a loaded gazetteer is never changed.
public struct Geocoder: Sendable {
    public let gazetteer: Gazetteer

    public init(gazetteer: Gazetteer) { self.gazetteer = gazetteer }

    /// Up to `limit` answers, best first; empty for junk, for text that names no place, and for an
    /// address whose town cannot be found.
    public func geocode(_ text: String, limit: Int = 5) -> [GeocodeResult] {
        lookup(text, limit: limit).results
    }

    /// The answers, with what kind of text was typed (read from the same parse).
    public func lookup(_ text: String, limit: Int = 5) -> GeocodeAnswer {
        answer(Self.parse(text), limit: limit)
    }

    /// The parse of `text`; nil for text far too long to name a place, or that names none whatever
    /// the gazetteer holds (`JunkText`).
    static func parse(_ text: String) -> ParsedQuery? {
        text.unicodeScalars.count <= 1000 && !JunkText.isJunk(text) ? QueryParser.parse(text) : nil
    }

    func answer(_ query: ParsedQuery?, limit: Int) -> GeocodeAnswer {
        guard limit > 0, var query else { return GeocodeAnswer(input: .place, results: []) }
        if query.nowFrom == nil, query.slashBefore == 1, query.parts.count == 2, areTwoPlaces(query.parts[0], query.parts[1]) {
            query.nowFrom = 1
        }
        let reading = read(query)
        query.parts = reading.parts
        // An address's town written in its street part ("strobelallee 50 dortmund, Germany"), when
        // no other part names a town ("18th and Valencia, San Francisco" is San Francisco).
        let words = placeWords
        if !query.streets.isEmpty, reading.parts.allSatisfy(words.isQualifier) {
            query.parts = query.streets.flatMap { gazetteer.reader.placesInAddress($0, words: words) } + reading.parts
        }
        let input = GeocodeInput(query)
        if let point = query.coordinates { return GeocodeAnswer(input: input, results: [result(at: point)]) }
        var ranked = Ranker(gazetteer: gazetteer, query: query).rank()
        var soundedOut = false
        if ranked.isEmpty, query.postcode == nil, let chinese = rewritten(query, by: Transliteration.otherChinese) {
            ranked = Ranker(gazetteer: gazetteer, query: chinese).rank()
        }
        if ranked.isEmpty, query.postcode == nil, let latin = rewritten(query, by: Transliteration.latin) {
            // A name in a script the gazetteer lacks, read by its sound: only places worth that guess.
            let typos = zip(query.parts, latin.parts).allSatisfy { $0 == $1 || Transliteration.allowsTypo(from: $0, latin: $1) }
            ranked = Ranker(gazetteer: gazetteer, query: latin).rank().filter {
                isWorthASoundedOutGuess(gazetteer.features[$0.feature]) && soundsLikeItsName(gazetteer.features[$0.feature], latin.parts, typos: typos)
            }
            soundedOut = !ranked.isEmpty
        }
        let postcode = postcodeResult(for: query, ranked: ranked)
        var results = postcode.map { [$0] } ?? []
        for candidate in ranked where results.count < limit {
            let result = result(for: candidate.feature)
            if !results.contains(where: { $0.name == result.name }) { results.append(result) }
        }
        var doubts: [GeocodeDoubt] = []
        if reading.readContext { doubts.append(.context) }
        if soundedOut { doubts.append(.transliterated) }
        if !reading.origins.isEmpty {
            doubts.append(.twoPlaces)
            if let origin = origin(reading.origins), !results.contains(where: { $0.name == origin.name }) {
                results.insert(origin, at: min(1, results.count))
            }
        }
        // A postcode that agrees with the place settles which one it is.
        if postcode == nil, let best = ranked.first {
            if best.typo { doubts.append(.typo) }
            if hasNamesake(of: best, in: ranked) { doubts.append(.namesakes) }
        }
        return GeocodeAnswer(input: input, results: Array(results.prefix(limit)), doubts: doubts)
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

    /// Raw coordinates, answered as typed, with the town they lie in.
    private func result(at point: (latitude: Double, longitude: Double)) -> GeocodeResult {
        let name = String(format: "%.5f, %.5f", point.latitude, point.longitude)
        var result = GeocodeResult(name: name, latitude: point.latitude, longitude: point.longitude, countryCode: "", accuracy: .address)
        result.town = town(for: result)
        return result
    }

    private func result(for index: Int) -> GeocodeResult {
        let feature = gazetteer.features[index]
        return GeocodeResult(name: gazetteer.displayName(of: feature), latitude: feature.latitude, longitude: feature.longitude,
                             countryCode: feature.countryCode, accuracy: accuracy(of: feature), bbox: gazetteer.bounds[index])
    }

    /// The best answer for where the student said they came from.
    private func origin(_ parts: [[UInt8]]) -> GeocodeResult? {
        var query = ParsedQuery()
        query.parts = parts
        return Ranker(gazetteer: gazetteer, query: query).rank().first.map { result(for: $0.feature) }
    }

    /// Whether another place scored about as well as the best one, far from it: "Springfield"
    /// alone, not "Paris" (France outranks Texas by far) nor a city and its own region.
    func hasNamesake(of best: Ranker.Candidate, in ranked: [Ranker.Candidate]) -> Bool {
        let first = gazetteer.features[best.feature]
        return ranked.dropFirst().prefix(4).contains { other in
            let feature = gazetteer.features[other.feature]
            return other.score >= best.score - Self.namesakeMargin
                && QualifierHits.kilometres(first.latitude, first.longitude, feature.latitude, feature.longitude) > 100
        }
    }

    /// Scores this close are a coin toss: a town ten times the size of another scores 10 more.
    static let namesakeMargin = 5.0

    private func accuracy(of feature: GeoFeature) -> GeoAccuracy {
        switch feature.kind {
        case .city: .city
        case .region, .area: .region
        case .country: .country
        }
    }
}
