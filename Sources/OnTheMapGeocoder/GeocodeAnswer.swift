/// Answers, what kind of text they answer, and how sure the first one is.
public struct GeocodeAnswer: Sendable {
    public let input: GeocodeInput
    public let results: [GeocodeResult]
    /// Why the first answer may not be the place the student meant; empty when it is sure (and
    /// when there is no answer). The other results are then the candidates to choose from.
    public let doubts: [GeocodeDoubt]

    public init(input: GeocodeInput, results: [GeocodeResult], doubts: [GeocodeDoubt] = []) {
        self.input = input
        self.results = results
        self.doubts = results.isEmpty ? [] : doubts
    }

    /// `low` when there is any doubt: the post preview says "less sure" and shows the candidates.
    public var confidence: GeocodeConfidence { doubts.isEmpty ? .high : .low }
}

/// How sure the geocoder is of its first answer.
public enum GeocodeConfidence: String, Sendable, Codable {
    case high, low
}

/// A reason the first answer is less sure.
public enum GeocodeDoubt: String, Sendable, Codable, CaseIterable {
    /// Words around the place were read away ("near Toronto", "moved to Quito last year").
    case context
    /// The text named two places ("from Lima, now in Quito"): the one where the student is now
    /// comes first, the other is among the results.
    case twoPlaces = "two-places"
    /// The place was found by forgiving a typo ("Seatle").
    case typo
    /// A name in a script the gazetteer has no entry in, matched by its sound in Latin letters
    /// ("వరంగల్" is Warangal).
    case transliterated
    /// Places of the same name far apart are about as likely ("Springfield").
    case namesakes
}

/// What kind of text was typed: a privacy choice is offered for the precise kinds.
public enum GeocodeInput: String, Sendable, Codable {
    /// A street address ("1600 Amphitheatre Pkwy, …").
    case street
    /// A postcode with or without a town ("75001 Paris", "94043").
    case postcode
    /// Raw coordinates.
    case coordinates
    /// A place: town, region, country.
    case place

    init(_ query: ParsedQuery) {
        self = query.coordinates != nil ? .coordinates : query.hadStreet ? .street : query.hadPostcode ? .postcode : .place
    }
}
