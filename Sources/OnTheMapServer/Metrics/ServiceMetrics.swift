import Metrics
import OnTheMapModel
import OnTheMapStore

/// What the services record for `/metrics`, through swift-metrics, when the process serves metrics
/// (`serve --metrics-address`); otherwise every function returns at once. Names: `MetricCatalogue`.
enum ServiceMetrics {
    /// One answered request, routed or answered by the edge from the cached list.
    static func request(family: PathFamily, route: String, method: String, status: Int, duration: Duration) {
        guard MetricsRecording.isOn else { return }
        Counter(label: MetricCatalogue.requests, dimensions: [
            ("family", family.metricName), ("route", route), ("method", method), ("status", String(status)),
        ]).increment()
        Timer(label: MetricCatalogue.requestDuration, dimensions: [("family", family.metricName), ("route", route), ("method", method)])
            .record(duration: duration)
    }

    enum ListCacheResult: String {
        case hit, miss
    }

    static func listCache(_ result: ListCacheResult) {
        guard MetricsRecording.isOn else { return }
        Counter(label: MetricCatalogue.listCache, dimensions: [("result", result.rawValue)]).increment()
    }

    /// How many courses' lists the list cache holds now, and their bytes (plain and gzipped).
    static func listCacheSize(lists: Int, bytes: Int) {
        guard MetricsRecording.isOn else { return }
        Meter(label: MetricCatalogue.listCacheLists).set(lists)
        Meter(label: MetricCatalogue.listCacheBytes).set(bytes)
    }

    /// How a student logged in.
    enum LoginMethod: String {
        /// `POST /v1/session` (and `/api/session`).
        case password
        /// Through an OpenID Connect provider.
        case provider = "oidc"
    }

    /// A login's outcome, told from what it threw.
    static func login(method: LoginMethod, failure error: (any Error)?) {
        guard MetricsRecording.isOn else { return }
        let outcome = switch error {
        case nil: "ok"
        case let error as APIError where error == .invalidCredentials: "failed"
        case let error as APIError where error == .accountDisabled: "disabled"
        case let error as APIError where error == .notACourseMember: "refused"
        case let error as APIError where error.status == 429: "throttled"
        case let error as SignInFailure where error == .accountDisabled: "disabled"
        case let error as SignInFailure: if case .providerUnavailable = error { "error" } else { "failed" }
        default: "error"
        }
        Counter(label: MetricCatalogue.logins, dimensions: [("method", method.rawValue), ("outcome", outcome)]).increment()
    }

    static func geocoded(input: String, duration: Duration) {
        guard MetricsRecording.isOn else { return }
        Timer(label: MetricCatalogue.geocodeDuration, dimensions: [("input", input)]).record(duration: duration)
    }

    /// A live stream opened (+1) or closed (-1).
    static func liveStreams(_ change: Int) {
        guard MetricsRecording.isOn else { return }
        let meter = Meter(label: MetricCatalogue.liveStreams)
        if change > 0 { meter.increment(by: Double(change)) } else { meter.decrement(by: Double(-change)) }
    }

    /// How many idempotency keys the database holds now.
    static func idempotencyKeys(_ count: Int) {
        guard MetricsRecording.isOn else { return }
        Meter(label: MetricCatalogue.idempotencyKeys).set(count)
    }
}

extension PathFamily {
    /// The `family` label of request metrics.
    var metricName: String {
        switch self {
        case .udacity: "udacity"
        case .v1Locations: "v1-locations"
        case .parse: "parse"
        case .native: "native"
        }
    }
}
