import Logging
import OnTheMapModel
import OnTheMapStore
import ServiceLifecycle

/// Owns the database for the life of the server: sweeps expired sessions every hour and closes the
/// file once the server has shut down gracefully.
struct DatabaseService: Service {
    let database: SQLiteDatabaseFile
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
        try await database.close()
    }
}
