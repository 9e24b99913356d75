import OnTheMapStore

/// Every metric the server exports: its name, what it means (the `# HELP` line an operator reads)
/// and, for durations, the bucket bounds that suit what it times. Names are spelled only here
/// and in `DatabaseMetrics`; the README ("Metrics") lists them for operators.
enum MetricCatalogue {
    static let requests = "onthemap_http_requests_total"
    static let requestDuration = "onthemap_http_request_duration_seconds"
    static let listCache = "onthemap_list_cache_total"
    static let listCacheLists = "onthemap_list_cache_lists"
    static let listCacheBytes = "onthemap_list_cache_bytes"
    static let logins = "onthemap_logins_total"
    static let geocodeDuration = "onthemap_geocode_duration_seconds"
    static let liveStreams = "onthemap_live_streams"
    static let idempotencyKeys = "onthemap_idempotency_keys"

    struct Entry {
        let help: String
        var durationBuckets: [Duration] = []
        var valueBuckets: [Double] = []
    }

    /// From half a millisecond (a cached list) to ten seconds (a request stuck on the database).
    private static let requestBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]
    /// From a tenth of a millisecond (an idle pool) to the five-second read budget and past it.
    private static let databaseBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]
    /// The offline geocoder answers in microseconds; an upstream one in up to its timeout.
    private static let geocodeBuckets: [Duration] = [
        .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(2.5),
    ]

    static let entries: [String: Entry] = [
        requests: Entry(help: "Requests answered, by path family (udacity, v1-locations, parse, native), route, method and status."),
        requestDuration: Entry(
            help: "Time from a request's head to its answer's head, by path family, route and method.", durationBuckets: requestBuckets),
        listCache: Entry(help: "Reads of a course's default list (latest 100) answered from memory (hit) or from the database (miss)."),
        listCacheLists: Entry(help: "Courses whose default list the cache holds now (at most --list-cache-courses)."),
        listCacheBytes: Entry(help: "Bytes of the lists the cache holds now, plain and gzipped."),
        logins: Entry(help: "Logins by method (password, oidc) and outcome: ok, failed (unknown email or wrong password; a provider's sign-in refused or cancelled), disabled (the account is), refused (not a member of the course whose path it came to), throttled, error."),
        geocodeDuration: Entry(help: "Time to answer GET /v1/geocode, by the kind of text typed.", durationBuckets: geocodeBuckets),
        liveStreams: Entry(help: "Live map streams (GET /v1/StudentLocation/events) open now."),
        idempotencyKeys: Entry(help: "Idempotency keys the database holds (answers kept for a day, requests running), sampled every 10 s."),
        DatabaseMetrics.waitLabel: Entry(
            help: "Time a read or a write waited for a database connection (SQLite's writer: for its batch), by engine and role.",
            durationBuckets: databaseBuckets),
        DatabaseMetrics.queryLabel: Entry(
            help: "Time a read's statement or a write's transaction held its connection, by engine and role.", durationBuckets: databaseBuckets),
        DatabaseMetrics.writesPerCommitLabel: Entry(
            help: "Writes committed by one transaction (SQLite's group commit; always 1 on PostgreSQL).",
            valueBuckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]),
    ]
}
