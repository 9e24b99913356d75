import Logging
import OnTheMapStore
import ServiceLifecycle

/// Samples how many idempotency keys the database holds for `/metrics`
/// (`onthemap_idempotency_keys`), at start and every `period`: the table is bounded per caller and
/// per address, and this shows whether it keeps to it. Runs only when metrics are served.
struct IdempotencyTableGauge: Service {
    let store: any IdempotencyStore
    let logger: Logger
    var period: Duration = .seconds(10)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    ServiceMetrics.idempotencyKeys(try await store.idempotencyKeyCount())
                } catch {
                    logger.debug("Could not count the idempotency keys for /metrics: \(error)")
                }
                try? await Task.sleep(for: period)
            }
        }
    }
}
