import Logging
import OnTheMapStore
import ServiceLifecycle

/// Keeps watching for writes other processes make to the database (`onthemap user remove` while
/// the server runs), so that they reach the list cache within `interval`.
struct ExternalWriteWatch: Service {
    let database: any DatabaseEngine
    let interval: Duration
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await database.watchExternalWrites(every: interval)
            }
        } catch is CancellationError {
            return
        } catch {
            logger.error("Stopped watching the database for other processes' writes: \(error)")
            throw error
        }
    }
}
