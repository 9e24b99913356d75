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
        let reading = read(&query)
        let input = GeocodeInput(query)
        if let point = query.coordinates { return GeocodeAnswer(input: input, results: [result(at: point)]) }
        var ranked = Ranker(gazetteer: gazetteer, query: query).rank()
        var soundedOut = false
        if ranked.isEmpty, query.postcode == nil, let other = rankedInOtherWriting(query) {
            (ranked, soundedOut) = other
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
