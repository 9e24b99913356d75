import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// `/healthz` and `/readyz` (docs/API.md, "Native endpoints"): liveness, and readiness for a load
/// balancer, which takes the instance out while the database does not answer or the geocoder loads.
struct HealthController: Sendable {
    let health: any StoreHealth
    let geocoder: GeocoderState

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.healthz) { _, _ in try JSONResponse.make(["status": "ok"]) }
        routes.add(.readyz, ready)
    }

    /// Ready when the database answers and the geocoder has loaded.
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            try await health.ping()
        } catch StoreError.unavailable(let reason) {
            context.logger.warning("Not ready: the database is unavailable: \(reason)")
            throw APIError.notReady("the database is unavailable (\(reason)).")
        } catch {
            context.logger.error("Readiness check failed: \(error)")
            throw APIError.notReady("the database check failed.")
        }
        switch geocoder.current {
        case .ready: return try JSONResponse.make(["status": "ready"])
        case .loading: throw APIError.geocoderLoading
        case .failed: throw APIError.unavailable
        }
    }
}
