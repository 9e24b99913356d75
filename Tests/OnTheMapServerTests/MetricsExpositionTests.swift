import CoreMetrics
import Testing
@testable import OnTheMapServer

/// The Prometheus text of `/metrics`: every metric explained by its catalogue entry, durations in
/// the buckets that suit them. (scripts/test/metrics-test.sh checks the live server's counters.)
@Suite struct MetricsExpositionTests {
    @Test func metricsCarryTheirCatalogueHelp() {
        let exposition = PrometheusExposition()
        Counter(label: MetricCatalogue.logins, dimensions: [("outcome", "ok")], factory: exposition.factory).increment(by: 2)
        let text = exposition.text()
        #expect(text.contains("# HELP onthemap_logins_total \(MetricCatalogue.entries[MetricCatalogue.logins]!.help)\n"))
        #expect(text.contains("# TYPE onthemap_logins_total counter\n"))
        #expect(text.contains("onthemap_logins_total{outcome=\"ok\"} 2\n"))
    }

    @Test func requestDurationsUseTheCataloguesBuckets() {
        let exposition = PrometheusExposition()
        Timer(label: MetricCatalogue.requestDuration, dimensions: [("family", "parse"), ("route", "/1/x"), ("method", "GET")],
              factory: exposition.factory).recordNanoseconds(700_000)
        let buckets = exposition.text().split(separator: "\n").filter { $0.hasPrefix("onthemap_http_request_duration_seconds_bucket") }
        let expected = MetricCatalogue.entries[MetricCatalogue.requestDuration]!.durationBuckets.count + 1   // and +Inf
        #expect(buckets.count == expected)
        // 0.7 ms: above the first bound (0.5 ms), within the second (1 ms).
        #expect(buckets[0].hasSuffix("le=\"0.0005\"} 0"))
        #expect(buckets[1].hasSuffix("le=\"0.001\"} 1"))
    }

    @Test func everyCataloguedDurationHasBuckets() {
        for (name, entry) in MetricCatalogue.entries where name.hasSuffix("_seconds") {
            #expect(!entry.durationBuckets.isEmpty, "\(name)")
            #expect(entry.durationBuckets == entry.durationBuckets.sorted(), "\(name)")
        }
    }

    @Test func pathFamiliesHaveStableLabels() {
        #expect(PathFamily.claiming("/v1/session").metricName == "udacity")
        #expect(PathFamily.claiming("/v1/StudentLocation/abc").metricName == "v1-locations")
        #expect(PathFamily.claiming("/parse/classes/StudentLocation").metricName == "parse")
        #expect(PathFamily.claiming("/v1/geocode").metricName == "native")
    }
}
