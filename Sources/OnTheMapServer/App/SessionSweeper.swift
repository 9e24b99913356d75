import Foundation
import Logging
import OnTheMapModel
import OnTheMapStore
import ServiceLifecycle

/// Once an hour, for as long as the server runs, deletes expired sessions, logins abandoned at a
/// provider, rate-limit events that no window counts any more, location events and idempotency keys older than a day (a client away longer reloads
/// its list rather than catching up), so the tables only hold live ones. With several instances on
/// one database, the one holding the sweeper's lease does it.
struct SessionSweeper: Service {
    let store: any SessionStore & RateLimitStore & LeaseStore & LocationEventStore & ExternalLoginStore & IdempotencyStore
    let rateEventLifetimeSeconds: Double
    let logger: Logger
    let clock: WallClock
    var period: Duration = .seconds(3600)
    /// The first sweep waits this long: a server that starts (or each of a fleet restarted one by
    /// one) answers and fills its caches first, and a short-lived one (a test's) never sweeps.
    var firstSweepAfter: Duration = .seconds(60)
    var locationEventLifetime: Duration = .seconds(86_400)
    /// This instance, as the lease's holder.
    let instance = UUID().uuidString

    static let leaseName = "session-sweeper"

    func run() async throws {
        await cancelWhenGracefulShutdown {
            try? await Task.sleep(for: firstSweepAfter)
            while !Task.isCancelled {
                do {
                    try await sweepIfLeaseHolder()
                } catch {
                    logger.warning("Could not remove expired sessions: \(error)")
                }
                try? await Task.sleep(for: period)
            }
        }
    }

    /// Sweeps when this instance holds (or can take) the lease; held for most of a period, so that
    /// the holder keeps it while it runs and another instance takes over when it stops.
    func sweepIfLeaseHolder() async throws {
        let now = clock.nowMillis()
        let periodMillis = period.components.seconds * 1000
        guard try await store.acquireLease(Self.leaseName, holder: instance, now: now, until: now + periodMillis * 5 / 6) else { return }
        let removed = try await store.deleteExpiredSessions(now: clock.nowMicros())
        if removed > 0 { logger.info("Removed \(removed) expired sessions") }
        _ = try await store.deleteExpiredPendingLogins(now: now)
        _ = try await store.deleteRateEvents(before: now - Int64(rateEventLifetimeSeconds * 1000))
        _ = try await store.deleteLocationEvents(before: now - locationEventLifetime.components.seconds * 1000)
        _ = try await store.deleteIdempotencyKeys(before: now - IdempotencyMiddleware.keptForMillis)
    }
}
