import Crypto
import OnTheMapModel
import OnTheMapStore

/// Counts events per key over a sliding window and refuses past a limit: failed logins, sign-ups,
/// anonymous writes and geocoding, per client address (or per email and address).
protocol RateLimiter: Sendable {
    /// Counts one event for `key` unless it is over the limit: a ticket to take it back, or the
    /// seconds to wait. Checking and counting are one step, so that concurrent requests cannot all
    /// pass the check before any is counted.
    func acquire(_ key: String) async throws -> RateDecision
    /// Takes back a counted event (an attempt reserved before it was known to be a failure, which
    /// turned out not to be one).
    func cancel(_ ticket: RateTicket) async
    /// Forgets `key` (a successful login clears its failures).
    func reset(_ key: String) async
}

extension RateLimiter {
    /// Counts one event for `key`, or refuses it with 429 and `Retry-After`: "Too many `what`; try
    /// again in N seconds." The one road from a limiter to a refusal.
    @discardableResult
    func admit(_ key: String, tooMany what: String) async throws -> RateTicket {
        switch try await acquire(key) {
        case .admitted(let ticket): return ticket
        case .refused(let wait): throw APIError.tooManyRequests(retryAfter: wait, message: "Too many \(what); try again in \(wait) seconds.")
        }
    }
}

enum RateDecision: Sendable {
    case admitted(RateTicket)
    case refused(retryAfter: Int)
}

/// One counted event.
struct RateTicket: Sendable, Equatable {
    let key: String
    let id: Int64
}

/// Where the limits count: in this process's memory (one instance: SQLite), or in the database,
/// so that every instance on it counts together (PostgreSQL behind a load balancer).
enum RateLimitPlacement: Sendable {
    case memory
    case database(any RateLimitStore, clock: WallClock)

    /// A limiter named `bucket` (the name keeps the database's counts apart).
    func limiter(_ bucket: String, limit: Int, windowSeconds: Double) -> any RateLimiter {
        switch self {
        case .memory: SlidingWindowLimiter(limit: limit, windowSeconds: windowSeconds)
        case .database(let store, let clock):
            SharedRateLimiter(store: store, bucket: bucket, limit: limit, windowMillis: Int64(windowSeconds * 1000), clock: clock)
        }
    }
}

/// A `RateLimiter` kept in the database. Keys are stored as their SHA-256, so that the table holds
/// no email or address in the clear, and any text (a NUL in a typed email) can be counted. Times
/// are each instance's wall clock, so instances on one database should keep time (NTP). If the
/// database cannot count, the request fails as any request that needs the database does.
struct SharedRateLimiter: RateLimiter {
    let store: any RateLimitStore
    let bucket: String
    let limit: Int
    let windowMillis: Int64
    let clock: WallClock

    func acquire(_ key: String) async throws -> RateDecision {
        let now = clock.nowMillis()
        switch try await store.admitRateEvent(bucket: bucket, key: Self.stored(key), limit: limit, windowMillis: windowMillis, now: now) {
        case .admitted(let id):
            return .admitted(RateTicket(key: key, id: id))
        case .refused(let oldest):
            return .refused(retryAfter: max(1, Int((oldest + windowMillis - now + 999) / 1000)))
        }
    }

    func cancel(_ ticket: RateTicket) async {
        try? await store.removeRateEvent(id: ticket.id)
    }

    func reset(_ key: String) async {
        try? await store.removeRateEvents(bucket: bucket, key: Self.stored(key))
    }

    private static func stored(_ key: String) -> String {
        Identifiers.hex(SHA256.hash(data: Array(key.utf8)))
    }
}
