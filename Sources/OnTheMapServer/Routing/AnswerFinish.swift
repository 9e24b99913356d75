import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import OnTheMapStore

/// What every answer gets on its way out, whichever road it took (the router, the edge's cached
/// list, a refusal the edge makes before routing): the security headers, then `Date` and `Server`
/// last, where Hummingbird puts them; then one log line and the request metrics. One piece, so that
/// the roads cannot drift apart (the fast path's answer is the router's byte for byte but `Date`).
struct AnswerFinish: Sendable {
    /// The `Server` header of every answer.
    static let serverName = "onthemap"

    let security: SecurityHeaders
    let logLevel: Logger.Level

    init(security: SecurityHeaders, logLevel: Logger.Level = RequestLog.defaultLevel) {
        self.security = security
        self.logLevel = logLevel
    }

    func finish(_ fields: inout HTTPFields, date: String) {
        security.apply(to: &fields)
        fields[.date] = date
        fields[.server] = Self.serverName
    }

    /// The log line and the metrics of one answer. `route` is the pattern matched, never the raw
    /// path, so that ids make no new series. The family and route are worked out only when metrics
    /// are recorded: the cached list's road is the hottest there is.
    func record(
        to logger: Logger, method: String, uri: String, family: @autoclosure () -> PathFamily, route: @autoclosure () -> String,
        status: Int, elapsed: Duration
    ) {
        RequestLog.write(to: logger, level: logLevel, method: method, uri: uri, status: status, milliseconds: elapsed.milliseconds)
        if MetricsRecording.isOn {
            ServiceMetrics.request(family: family(), route: route(), method: method, status: status, duration: elapsed)
        }
    }
}

/// The router's end of `AnswerFinish`: outermost but for `RequestFactsMiddleware`, so it times and
/// records the whole answer.
struct AnswerFinishMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The route label of a request that matched no route: Hummingbird's own name for it, which
    /// its router also sets.
    static let unmatched = "NotFound"

    let finish: AnswerFinish
    private let dates = NIOLockedValueBox(HTTPDate())

    init(_ finish: AnswerFinish) { self.finish = finish }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            var response = try await next(request, context)
            finish.finish(&response.headers, date: dates.withLockedValue { $0.now() })
            record(request, context: context, status: response.status.code, since: started)
            return response
        } catch {
            // Only what ErrorMiddleware lets through (nothing, today); its own status when it has one.
            record(request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: Int, since started: ContinuousClock.Instant) {
        finish.record(
            to: context.logger, method: request.method.rawValue, uri: request.uri.description, family: context.family(of: request),
            route: context.endpointPath ?? Self.unmatched, status: status, elapsed: ContinuousClock.now - started)
    }
}
