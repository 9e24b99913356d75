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

    /// The parse of `text`; nil for text far too long to name a place.
    static func parse(_ text: String) -> ParsedQuery? {
        text.unicodeScalars.count <= 1000 ? QueryParser.parse(text) : nil
    }

    func answer(_ query: ParsedQuery?, limit: Int) -> GeocodeAnswer {
        guard limit > 0, let query else { return GeocodeAnswer(input: .place, results: []) }
        return GeocodeAnswer(input: GeocodeInput(query), results: results(for: query, limit: limit))
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
        if let zip = query.zip, let centroid = gazetteer.zips[zip], zipAgrees(centroid, with: query, best: ranked.first) {
            results.append(zipResult(zip, centroid))
        }
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

    /// Five digits are a US ZIP unless the text says otherwise: a postcode of another country's
    /// format, a best reading outside the US ("75001 Paris" is Paris, France, not Addison, Texas),
    /// or a US state the ZIP is not in.
    private func zipAgrees(_ centroid: Gazetteer.ZipCentroid, with query: ParsedQuery, best: Ranker.Candidate?) -> Bool {
        if let country = query.postcodeCountry, country != "US" { return false }
        if let best {
            let country = gazetteer.features[best.feature].countryCode
            // Puerto Rico, Guam and the other territories have ZIPs and are countries in GeoNames.
            if country != "US", country != centroid.state { return false }
        }
        for part in query.parts {
            let states = gazetteer.names.hits(normalized: part).map { gazetteer.features[$0.feature] }
                .filter { $0.kind == .region && $0.countryCode == "US" }
            if !states.isEmpty, !states.contains(where: { $0.admin1Code == centroid.state }) { return false }
        }
        return true
    }

    private func zipResult(_ zip: String, _ centroid: Gazetteer.ZipCentroid) -> GeocodeResult {
        let state = gazetteer.regionByCode["US." + centroid.state].map { gazetteer.features[$0].name } ?? centroid.state
        var result = GeocodeResult(name: "\(zip) \(centroid.city), \(state), United States", latitude: centroid.latitude,
                                   longitude: centroid.longitude, countryCode: "US", accuracy: .postcode)
        result.town = town(for: result)
        return result
    }
}
