import Logging

/// The offline geocoder, with an optional upstream asked first for street-level input (an offline
/// gazetteer cannot place a street address). The upstream's answers are cached; when it fails, is
/// slow or finds nothing, the offline answer is given.
public struct HybridGeocoder: Sendable {
    public let offline: Geocoder
    let upstream: NominatimClient?
    let cache: UpstreamCache
    let logger: Logger

    public init(offline: Geocoder, upstream: NominatimClient?, cache: UpstreamCache, logger: Logger) {
        self.offline = offline
        self.upstream = upstream
        self.cache = cache
        self.logger = logger
    }

    public func lookup(_ text: String, limit: Int) async -> GeocodeAnswer {
        let query = Geocoder.parse(text)
        // A street address is what only an online geocoder can place precisely.
        if let upstream, let query, query.hadStreet, limit > 0 {
            let input = GeocodeInput(query)
            let key = "\(limit)\u{0}\(text)"
            if let cached = await cache.results(for: key) {
                if !cached.isEmpty { return GeocodeAnswer(input: input, results: cached) }
            } else {
                do {
                    let results = try await upstream.search(text, limit: limit).map { result in
                        var located = result
                        located.town = offline.town(for: result)
                        return located
                    }
                    await cache.store(results, for: key)
                    if !results.isEmpty { return GeocodeAnswer(input: input, results: results) }
                } catch {
                    logger.warning("Geocoder upstream failed, answering offline: \(error)")
                }
            }
        }
        return offline.answer(query, limit: limit)
    }
}

/// Upstream answers by query, bounded in size and age.
public actor UpstreamCache {
    private let capacity: Int
    private let lifetime: Duration
    private var entries: [String: (results: [GeocodeResult], storedAt: ContinuousClock.Instant)] = [:]
    private var order: [String] = []

    public init(capacity: Int = 10_000, lifetime: Duration = .seconds(86_400)) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// Cached answers (possibly empty), or nil when unknown or expired.
    func results(for key: String) -> [GeocodeResult]? {
        guard let entry = entries[key] else { return nil }
        guard ContinuousClock.now - entry.storedAt < lifetime else {
            entries[key] = nil
            return nil
        }
        return entry.results
    }

    func store(_ results: [GeocodeResult], for key: String) {
        if entries[key] == nil { order.append(key) }
        entries[key] = (results, ContinuousClock.now)
        while entries.count > capacity, !order.isEmpty {
            entries[order.removeFirst()] = nil
        }
    }
}
