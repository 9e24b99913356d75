import Hummingbird
import OnTheMapGeocoder
import OnTheMapModel

/// `GET /v1/geocode?q=…&limit=5` (docs/API.md, "Native endpoints"): forward geocoding, offline.
struct GeocodeController: Sendable {
    static let maxQueryLength = 200
    static let maxLimit = 20

    let state: GeocoderState
    /// Asked first for street-level input when the operator configured one.
    let upstream: NominatimClient?
    let upstreamCache: UpstreamCache
    let limiter: any RateLimiter

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.geocode, geocode)
    }

    @Sendable func geocode(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await limiter.admit(context.clientAddress, tooMany: "geocoding requests")
        let (query, limit) = try Self.parameters(request.uri.query)
        let geocoder: Geocoder
        switch state.current {
        case .ready(let loaded): geocoder = loaded
        case .loading: throw APIError.geocoderLoading
        case .failed: throw APIError.unavailable
        }
        let hybrid = HybridGeocoder(offline: geocoder, upstream: upstream, cache: upstreamCache, logger: context.logger)
        let started = ContinuousClock.now
        let answer = await hybrid.lookup(query, limit: limit)
        ServiceMetrics.geocoded(input: answer.input.rawValue, duration: ContinuousClock.now - started)
        return try JSONResponse.make(GeocodeBody(input: answer.input, confidence: answer.confidence, doubts: answer.doubts, results: answer.results))
    }

    /// `q` (1–200 characters of valid UTF-8 without control characters) and `limit` (1–20, default 5).
    static func parameters(_ rawQuery: String?) throws(APIError) -> (query: String, limit: Int) {
        var query: String?
        var limit = 5
        for (name, rawValue) in QueryString.rawPairs(rawQuery) {
            switch name {
            case "q":
                guard let text = QueryString.strictPercentDecode(rawValue) else {
                    throw .invalidQuery("q must be valid UTF-8.", parameter: "q")
                }
                query = text.replacingOccurrences(of: "+", with: " ")
            case "limit":
                guard let value = Int(rawValue), (1...maxLimit).contains(value) else {
                    throw .invalidQuery("limit must be a whole number from 1 to \(maxLimit).", parameter: "limit")
                }
                limit = value
            default:
                continue
            }
        }
        guard let query, !query.allSatisfy(\.isWhitespace) else { throw .invalidQuery("q is required: the place to look up.", parameter: "q") }
        guard query.count <= maxQueryLength else { throw .invalidQuery("q must be at most \(maxQueryLength) characters.", parameter: "q") }
        guard !query.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidQuery("q must not contain control characters.", parameter: "q")
        }
        return (query, limit)
    }
}

private struct GeocodeBody: Encodable {
    /// What kind of text `q` was (street, postcode, coordinates, place): the web client offers to
    /// share only the town for the precise kinds.
    let input: GeocodeInput
    /// `low` when the first result may not be what was meant (`doubts` say why): the post preview
    /// says "less sure" and offers the other results.
    let confidence: GeocodeConfidence
    let doubts: [GeocodeDoubt]
    let results: [GeocodeResult]
}
