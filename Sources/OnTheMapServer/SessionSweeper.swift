import Logging
import OnTheMapModel
import OnTheMapStore
import ServiceLifecycle

/// Deletes expired sessions once an hour for as long as the server runs, so the table only holds
/// live ones.
struct SessionSweeper: Service {
    let sessions: any SessionStore
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await sessions.deleteExpiredSessions(now: WallClock.nowMicros())
                    if removed > 0 { logger.info("Removed \(removed) expired sessions") }
                } catch {
                    logger.warning("Could not remove expired sessions: \(error)")
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }
}
