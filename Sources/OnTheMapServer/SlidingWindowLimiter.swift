/// Counts events per key over a sliding window: login attempts per (email, address), anonymous writes
/// per address. `acquire` checks and counts in one step, so that concurrent requests cannot all pass
/// the check before any is counted. In memory, since limits only need to hold for one process; stale keys are swept so
/// that the table cannot grow without bound.
actor SlidingWindowLimiter {
    let limit: Int
    let window: Duration
    private var events: [String: [ContinuousClock.Instant]] = [:]
    private var recordsSinceSweep = 0

    init(limit: Int, windowSeconds: Double) {
        self.limit = limit
        self.window = .milliseconds(Int64(windowSeconds * 1000))
    }

    /// Seconds until `key` may act again, or nil when it is under the limit.
    func retryAfter(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        let recent = prune(key, now: now)
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        let wait = (oldest + window) - now
        return max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up)))
    }

    /// Counts one event for `key`.
    func record(_ key: String, now: ContinuousClock.Instant = .now) {
        var recent = prune(key, now: now)
        recent.append(now)
        events[key] = recent
        recordsSinceSweep += 1
        if recordsSinceSweep >= 1000 { sweep(now: now) }
    }

    /// Counts one event unless `key` is over the limit; returns the wait when it is.
    func acquire(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        if let wait = retryAfter(key, now: now) { return wait }
        record(key, now: now)
        return nil
    }

    /// Takes back the event counted for `key` at `instant` (an attempt reserved before it was
    /// known to be a failure, which turned out not to be one).
    func cancel(_ key: String, recordedAt instant: ContinuousClock.Instant) {
        guard var recent = events[key], let index = recent.firstIndex(of: instant) else { return }
        recent.remove(at: index)
        events[key] = recent.isEmpty ? nil : recent
    }

    /// Forgets `key` (a successful login clears its failures).
    func reset(_ key: String) {
        events[key] = nil
    }

    private func prune(_ key: String, now: ContinuousClock.Instant) -> [ContinuousClock.Instant] {
        guard var recent = events[key] else { return [] }
        recent.removeAll { now - $0 >= window }
        events[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private func sweep(now: ContinuousClock.Instant) {
        recordsSinceSweep = 0
        events = events.filter { _, times in times.contains { now - $0 < window } }
    }
}
