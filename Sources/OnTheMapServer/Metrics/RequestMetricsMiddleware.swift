import Hummingbird
import OnTheMapStore

/// Counts and times every routed request by path family, route (the pattern matched, never the
/// raw path, so ids do not make new series) and status. Requests the edge answers from the cached
/// list are recorded by the edge (`CachedListFastPath`).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// The route label of a request that matched no route: Hummingbird's own name for it, which
    /// its router also sets.
    static let unmatched = "NotFound"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard MetricsRecording.isOn else { return try await next(request, context) }
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: response.status.code, since: started)
            return response
        } catch {
            record(request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: Int, since started: ContinuousClock.Instant) {
        ServiceMetrics.request(
            family: context.family(of: request), route: context.endpointPath ?? Self.unmatched, method: request.method.rawValue, status: status,
            duration: ContinuousClock.now - started)
    }
}
