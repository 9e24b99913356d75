import Foundation

/// A postcode's answer: looked up only in the country the text is in, and given
/// only when nothing else in the text contradicts it; otherwise the town the text names answers.
extension Geocoder {
    /// Where five digits alone are looked up: US ZIP codes, including those of Puerto Rico, Guam
    /// and the other territories, which are countries in GeoNames.
    static let zipCountries = ["US", "PR", "VI", "GU", "AS", "MP", "MH", "FM", "PW"]

    func postcodeResult(for query: ParsedQuery, ranked: [Ranker.Candidate]) -> GeocodeResult? {
        guard let postcode = query.postcode else { return nil }
        for country in countries(for: postcode, script: query.scriptCountry, best: ranked.first.map { gazetteer.features[$0.feature] }) {
            guard let location = gazetteer.postcodes.find(postcode.code, in: country) else { continue }
            guard agrees(location, with: query, ranked: ranked) else { return nil }
            // The town to share is the one typed with the code ("75001 Paris" is shared as Paris,
            // not as the arrondissement the nearest-town rule would find).
            let typed = ranked.lazy.map { self.gazetteer.features[$0.feature] }.first(where: location.isNear)
            return result(for: gazetteer.postcodes.entry(location), town: typed)
        }
        return ranked.isEmpty ? namedWithItsPlace(postcode, parts: query.parts).map { result(for: $0, town: nil) } : nil
    }

    /// A code typed with the very place its country lists it at ("2770 Kastrup", a place too small
    /// for the gazetteer): the code, whichever country lists it so.
    private func namedWithItsPlace(_ postcode: ParsedQuery.Postcode, parts: [[UInt8]]) -> PostcodeTable.Entry? {
        guard !parts.isEmpty else { return nil }
        for country in postcode.country.map({ [$0] }) ?? gazetteer.postcodes.countries {
            guard let location = gazetteer.postcodes.find(postcode.code, in: country) else { continue }
            let entry = gazetteer.postcodes.entry(location)
            if parts.contains(Array(TextNormalizer.normalize(entry.place).utf8)) { return entry }
        }
        return nil
    }

    /// The country a code is read in: the one its format names ("SW1A 2AA"), else the one of the
    /// best reading of the rest ("75001 Paris" is in France, not Addison, Texas), else the one the
    /// text's script names ("48060 해운대구" is Korean), else, for five digits alone, a US ZIP.
    private func countries(for postcode: ParsedQuery.Postcode, script: String?, best: GeoFeature?) -> [String] {
        if let country = postcode.country { return [country] }
        if let best { return [best.countryCode] }
        if let script { return [script] }
        return postcode.isFiveDigits ? Self.zipCountries : []
    }

    /// A postcode stands unless the rest of the text is somewhere else: its best reading in another
    /// country ("SW1A 2AA, Paris"), the towns it names beyond the code's reach, or a region the
    /// code is not in ("Springfield, IL 75001") named by a part that names no town near the code
    /// ("Washington 20001" is the city, not the state).
    private func agrees(_ location: PostcodeTable.Location, with query: ParsedQuery, ranked: [Ranker.Candidate]) -> Bool {
        if let best = ranked.first, gazetteer.features[best.feature].countryCode != location.country { return false }
        let towns = ranked.map { gazetteer.features[$0.feature] }.filter { $0.kind == .city && $0.countryCode == location.country }
        // A code's own point may be near any town of the name (the ranker's choice among homonyms
        // may be wrong); an estimate, only near the town the text names first ("Powai, Mumbai
        // 400076": Mumbai's estimate lies 17 km from Powai).
        if let town = towns.first, location.estimated ? !location.isNear(town) : !towns.contains(where: location.isNear) {
            return false
        }
        for part in query.parts {
            let named = gazetteer.names.hits(normalized: part).map(\.feature)
            let regions = named.filter { gazetteer.features[$0].kind == .region && gazetteer.features[$0].countryCode == location.country }
            guard !regions.isEmpty, !named.contains(where: { location.isNear(gazetteer.features[$0]) }) else { continue }
            if !regions.contains(where: { $0 == location.region }) { return false }
        }
        return true
    }

    /// "94043 Mountain View, California, United States", "SW1A Westminster Abbey, England, United Kingdom".
    private func result(for entry: PostcodeTable.Entry, town typed: GeoFeature?) -> GeocodeResult {
        let location = entry.location
        var parts = ["\(entry.code) \(entry.place)"]
        if let region = location.region, gazetteer.features[region].name != entry.place { parts.append(gazetteer.features[region].name) }
        if let country = gazetteer.countryByCode[location.country] { parts.append(gazetteer.features[country].name) }
        var result = GeocodeResult(name: parts.joined(separator: ", "), latitude: location.latitude, longitude: location.longitude,
                                   countryCode: location.country, accuracy: .postcode)
        result.town = typed.map(town(of:)) ?? town(for: result)
        return result
    }
}

extension PostcodeTable.Location {
    /// How far a postcode may lie from the town typed with it. A metropolis's codes reach its
    /// suburbs ("Los Angeles 90265" is Malibu, 45 km out); farther, the text contradicts itself.
    static let reach = 100.0
    /// An estimated point is trusted only this near the town typed with it: GeoNames puts
    /// Bangalore's 560001 28 km north of the city, and Vancouver's V6T 30 km out.
    static let estimateReach = 15.0

    /// Whether `town` could be the town this code is in.
    func isNear(_ town: GeoFeature) -> Bool {
        guard town.kind == .city, town.countryCode == country else { return false }
        return QualifierHits.kilometres(latitude, longitude, town.latitude, town.longitude) <= (estimated ? Self.estimateReach : Self.reach)
    }

    /// Whether the reading `feature` is where this code is: a town near it, its region, its country.
    func agrees(with feature: Int, in gazetteer: Gazetteer) -> Bool {
        let place = gazetteer.features[feature]
        switch place.kind {
        case .city: return isNear(place)
        case .region: return region == feature
        case .country: return place.countryCode == country
        case .area: return false
        }
    }
}
