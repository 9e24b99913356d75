import CoreMetrics
import Hummingbird
import Logging
import OnTheMapStore
import Prometheus

/// The metrics of this process in Prometheus's text format, served at `GET /metrics` on an
/// address of their own (`serve --metrics-address`), never on the public one: they tell what an
/// operator needs and an outsider should not see (traffic, login failures).
public struct PrometheusExposition: Sendable {
    let registry = PrometheusCollectorRegistry()

    public init() {}

    /// The swift-metrics backend that records into this exposition, with each metric's help and buckets.
    public var factory: any MetricsFactory { CataloguedPrometheusFactory(registry: registry) }

    /// Makes this exposition the process's metrics backend. Once per process.
    public func bootstrap() {
        MetricsSystem.bootstrap(factory)
        MetricsRecording.turnOn()
    }

    /// Everything recorded so far, as Prometheus text (version 0.0.4).
    public func text() -> String {
        registry.emitToString()
    }

    /// A server answering `GET /metrics` (and nothing else) on `host`:`port`, to run beside the API.
    public func application(host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
        let router = Router()
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: AnswerFinish.serverName),
            onServerRunning: { channel in
                logger.notice("Metrics: http://\(channel.localAddress?.ipAddress ?? host):\(channel.localAddress?.port ?? port)/metrics")
            },
            logger: logger)
    }
}

/// swift-prometheus's own factory gives every metric an empty help text; this one takes help
/// and buckets from `MetricCatalogue`, so that `/metrics` explains itself.
struct CataloguedPrometheusFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry

    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: MetricCatalogue.entries[label]?.help ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        let buckets = MetricCatalogue.entries[label]?.valueBuckets ?? []
        return registry.makeValueHistogram(
            descriptor: descriptor(label), labels: dimensions, buckets: buckets.isEmpty ? [1, 10, 100, 1000] : buckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let buckets = MetricCatalogue.entries[label]?.durationBuckets ?? []
        return registry.makeDurationHistogram(
            descriptor: descriptor(label), labels: dimensions,
            buckets: buckets.isEmpty ? [.milliseconds(1), .milliseconds(10), .milliseconds(100), .seconds(1), .seconds(10)] : buckets)
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
