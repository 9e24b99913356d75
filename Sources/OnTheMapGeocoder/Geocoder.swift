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
        query.parts = read(query)
        return GeocodeAnswer(input: GeocodeInput(query), results: results(for: query, limit: limit))
    }

    /// The query's parts without the words around the place ("close to Lima" → "lima"). Names and
    /// stopwords keep their words ("Greater Sudbury", "home sweet home" is no Sweet Home).
    func read(_ query: ParsedQuery) -> [[UInt8]] {
        gazetteer.reader.read(query.parts, nowFrom: query.nowFrom) { words in
            gazetteer.names.contains(normalized: words) || gazetteer.stopwords.contains(words)
        }
    }

    func results(for query: ParsedQuery, limit: Int) -> [GeocodeResult] {
        if let point = query.coordinates {
            let name = String(format: "%.5f, %.5f", point.latitude, point.longitude)
            var result = GeocodeResult(name: name, latitude: point.latitude, longitude: point.longitude, countryCode: "", accuracy: .address)
            result.town = town(for: result)
            return [result]
        }
        var results: [GeocodeResult] = []
        let ranked = Ranker(gazetteer: gazetteer, query: query).rank()
        if let postcode = postcodeResult(for: query, ranked: ranked) { results.append(postcode) }
        for candidate in ranked where results.count < limit {
            let feature = gazetteer.features[candidate.feature]
            let result = GeocodeResult(
                name: gazetteer.displayName(of: feature), latitude: feature.latitude, longitude: feature.longitude,
                countryCode: feature.countryCode, accuracy: accuracy(of: feature), bbox: gazetteer.bounds[candidate.feature])
            if !results.contains(where: { $0.name == result.name }) { results.append(result) }
        }
        return Array(results.prefix(limit))
    }

    private func accuracy(of feature: GeoFeature) -> GeoAccuracy {
        switch feature.kind {
        case .city: .city
        case .region: .region
        case .country: .country
        }
    }
}
