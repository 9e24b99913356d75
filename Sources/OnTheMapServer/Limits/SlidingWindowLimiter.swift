/// A `RateLimiter` in this process's memory: enough for one instance (SQLite), and free of any
/// database write. Stale keys are swept so that the table cannot grow without bound.
actor SlidingWindowLimiter: RateLimiter {
    let limit: Int
    let window: Duration
    private var events: [String: [(id: Int64, at: ContinuousClock.Instant)]] = [:]
    private var nextID: Int64 = 0
    private var recordsSinceSweep = 0

    init(limit: Int, windowSeconds: Double) {
        self.limit = limit
        self.window = .milliseconds(Int64(windowSeconds * 1000))
    }

    func acquire(_ key: String) -> RateDecision {
        let now = ContinuousClock.now
        var recent = prune(key, now: now)
        if recent.count >= limit, let oldest = recent.first {
            let wait = (oldest.at + window) - now
            return .refused(retryAfter: max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up))))
        }
        nextID += 1
        recent.append((nextID, now))
        events[key] = recent
        recordsSinceSweep += 1
        if recordsSinceSweep >= 1000 { sweep(now: now) }
        return .admitted(RateTicket(key: key, id: nextID))
    }

    func cancel(_ ticket: RateTicket) {
        guard var recent = events[ticket.key], let index = recent.firstIndex(where: { $0.id == ticket.id }) else { return }
        recent.remove(at: index)
        events[ticket.key] = recent.isEmpty ? nil : recent
    }

    func reset(_ key: String) {
        events[key] = nil
    }

    private func prune(_ key: String, now: ContinuousClock.Instant) -> [(id: Int64, at: ContinuousClock.Instant)] {
        guard var recent = events[key] else { return [] }
        recent.removeAll { now - $0.at >= window }
        events[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private func sweep(now: ContinuousClock.Instant) {
        recordsSinceSweep = 0
        events = events.filter { _, times in times.contains { now - $0.at < window } }
    }
}
