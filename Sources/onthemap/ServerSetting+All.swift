import Logging
import OnTheMapPostgres
import OnTheMapServer
import OnTheMapSQLite

/// Every setting of `onthemap serve`, in the README's order.
extension ServerSetting {
    static let all: [ServerSetting] = [
        host, port, database, databasePooler, databaseReplicas, databaseReplicaLag, writes, courseCreators, publicURL, trustProxy, sessionDays, sessionIdleDays, maxListLimit, maxSkip, listCacheCourses,
        databaseReaders, databaseWriters, readBudget, expensiveQueries, expensiveQueue, writeQueue,
        headerTimeout, bodyTimeout, idleTimeout, maxConnections, maxConnectionsPerAddress,
        signUpLimit, loginFailureLimit, liveStreams, liveStreamsPerAddress, geocoderUpstream, tilesURL, tilesAttribution, leafletDirectory,
        logLevel, logFormat, oidcProviders, secretFile, adoptSecret, metricsAddress,
    ]

    static let host = ServerSetting("host", valueName: "address", default: code(configuration.host),
        "address to listen on (`0.0.0.0` for every interface)")
    static let port = ServerSetting("port", valueName: "port", default: code(configuration.port),
        "port (`0` picks a free one and logs it)")
    static let defaultDatabase = "./onthemap.sqlite"
    static let database = ServerSetting("database", valueName: "path|url", default: code(defaultDatabase), """
        SQLite file, created if missing, or a PostgreSQL URL `postgres://user:password@host:5432/name` (libpq's `sslmode` and \
        `sslrootcert`, `host=/run/postgresql` for a local socket, and `schema=name` to keep the tables in their own schema)
        """)
    static let databasePooler = ServerSetting("database-pooler", valueName: "url", default: "none", """
        PostgreSQL only: PgBouncer in transaction mode in front of each database host, in the same order \
        (`postgres://user:password@db1:6432,db2:6432/name`): reads and writes go through it, the change channel's `LISTEN` \
        and the migrations straight to the database
        """)
    static let databaseReplicas = ServerSetting("database-replicas", valueName: "url", default: "none", """
        PostgreSQL only: standbys the lists no cache holds may be read from, e.g. the database's own hosts \
        (`postgres://user:password@db1:5432,db2:5432/name?target_session_attrs=prefer-standby`): whichever are standbys within \
        the lag bound take those reads in turn; a student who has just written reads from one that has their write, else from the primary
        """)
    static let databaseReplicaLag = ServerSetting("database-replica-lag-ms", valueName: "ms",
        default: milliseconds(PostgresEngine.Options().maxReplicaLag),
        "PostgreSQL only: a standby further behind the primary than this takes no reads until it catches up")
    static let writes = ServerSetting("writes", valueName: "mode", default: code(configuration.writeMode.rawValue),
        "`accounts`: writes need a login; `open`: anyone may write")
    static let courseCreators = ServerSetting("course-creators", valueName: "who", default: code(configuration.courseCreators.rawValue),
        "`anyone`: every logged-in account may start a course, and teaches it; `admins`: only the server's admins (and `onthemap course add`)")
    static let publicURL = ServerSetting("public-url", valueName: "url", default: "none", """
        the origin users reach the service at, e.g. `https://map.example.org`: checked against `Origin` on browser writes, logins \
        and sign-ups, used for Parse `Location` headers (a path without it), and `https` makes cookies `Secure` and adds HSTS
        """)
    static let trustProxy = ServerSetting("trust-proxy", valueName: "no|yes|addresses", default: "`no`", """
        the reverse proxies whose `X-Forwarded-For` gives the client's address: their addresses and CIDR ranges, comma-separated, \
        or `yes` for one on this machine (127.0.0.0/8, ::1); the client is the rightmost hop that is not one of them, and any \
        other peer's header is ignored
        """)
    static let sessionDays = ServerSetting("session-days", valueName: "days", default: code(configuration.sessionLifetimeSeconds / 86_400),
        "how long a login lasts")
    static let sessionIdleDays = ServerSetting("session-idle-days", valueName: "days", default: code(configuration.sessionIdleSeconds / 86_400),
        "how long a login lasts unused; each use moves it on, within `--session-days`")
    static let maxListLimit = ServerSetting("max-list-limit", valueName: "count", default: code(configuration.maxListLimit),
        "largest page a list returns; larger `limit` values are clamped")
    static let maxSkip = ServerSetting("max-skip", valueName: "count", default: code(configuration.maxSkip),
        "largest `skip` a list accepts; deeper pages answer 400")
    static let listCacheCourses = ServerSetting("list-cache-courses", valueName: "count", default: code(configuration.listCacheCourses),
        "courses whose latest-100 list is kept in memory (those read most recently); the rest are read from the database")
    static let databaseReaders = ServerSetting(
        "database-readers", valueName: "count",
        default: "\(code(SQLiteDatabaseFile.Options().readers)) (SQLite), \(code(PostgresEngine.Options().readers)) (PostgreSQL)",
        "database connections for reads: how many reads run at once beside the writes")
    static let databaseWriters = ServerSetting("database-writers", valueName: "count", default: code(PostgresEngine.Options().writers),
        "PostgreSQL only: connections for writes (SQLite has one writer)")
    static let readBudget = ServerSetting("read-budget-ms", valueName: "ms", default: milliseconds(SQLiteDatabaseFile.Options().readBudget),
        "how long one database read may run before it is stopped and answered 503 with `Retry-After`")
    static let expensiveQueries = ServerSetting("expensive-queries", valueName: "count", default: code(configuration.expensiveReadConcurrency), """
        list queries that may scan the table running at once (keep below `--database-readers`, so cheap reads always find a \
        connection)
        """)
    static let expensiveQueue = ServerSetting("expensive-queue", valueName: "count", default: code(configuration.expensiveReadQueue),
        "expensive queries that may wait for a place; more are answered 503 with `Retry-After`")
    static let writeQueue = ServerSetting("write-queue", valueName: "count", default: code(SQLiteDatabaseFile.Options().maxPendingWrites),
        "writes that may wait for the database; more are answered 503 with `Retry-After`")
    static let headerTimeout = ServerSetting("header-timeout", valueName: "seconds", default: seconds(edge.headerTimeout),
        "seconds from a request's first byte to the end of its headers; slower clients get 408 and are closed")
    static let bodyTimeout = ServerSetting("body-timeout", valueName: "seconds", default: seconds(edge.bodyTimeout),
        "seconds to receive a request's body after its headers")
    static let idleTimeout = ServerSetting("idle-timeout", valueName: "seconds", default: seconds(edge.idleTimeout),
        "seconds a keep-alive connection may wait, idle, for its next request")
    static let maxConnections = ServerSetting("max-connections", valueName: "count", default: "file descriptor limit − 128", """
        open connections in all; when full the longest-idle one is closed to make room, and with none idle a newcomer gets 503
        """)
    static let maxConnectionsPerAddress = ServerSetting(
        "max-connections-per-address", valueName: "count", default: code(edge.maxConnectionsPerAddress),
        "open connections from one address (429 past it); not applied with `--trust-proxy`")
    static let signUpLimit = ServerSetting("signup-limit", valueName: "count", default: code(configuration.signUpsPerAddressPer10Minutes),
        "sign-ups per client address in 10 minutes (a class behind one NAT shares an address)")
    static let loginFailureLimit = ServerSetting(
        "login-failure-limit", valueName: "count", default: code(configuration.loginFailuresPerAddressPerMinute),
        "failed logins per client address per minute, over any emails")
    static let liveStreams = ServerSetting("live-streams", valueName: "count", default: code(configuration.live.maxStreams), """
        live map streams (`GET /v1/StudentLocation/events`) open at once on this instance (`0` turns them off); more are \
        answered 503
        """)
    static let liveStreamsPerAddress = ServerSetting(
        "live-streams-per-address", valueName: "count", default: code(configuration.live.maxStreamsPerAddress),
        "live map streams one client address may hold; more are answered 429")
    static let geocoderUpstream = ServerSetting("geocoder-upstream", valueName: "url", default: "none", """
        a Nominatim-compatible search endpoint (`https://…/search`) asked first for street addresses, with a 1.5 s timeout and a \
        cache; the offline geocoder answers when it fails, is slow or finds nothing
        """)
    static let tilesURL = ServerSetting("tiles-url", valueName: "template", default: "none", """
        online map tiles for the web app, a URL template with `{z}`, `{x}`, `{y}` (and optionally a leading `{s}.` subdomain); \
        needs `--tiles-attribution`
        """)
    static let tilesAttribution = ServerSetting("tiles-attribution", valueName: "text", default: "none",
        "the credit line the tile provider requires, shown on the map")
    static let leafletDirectory = ServerSetting("leaflet-dir", valueName: "path", default: code(WebClientSettings.debianLeafletDirectory),
        "where `leaflet.js` and `leaflet.markercluster.js` are (Debian puts both there)")
    static let defaultLogLevel = Logger.Level.info
    static let logLevel = ServerSetting("log-level", valueName: "level", default: code(defaultLogLevel.rawValue), "`trace` … `critical`")
    static let defaultLogFormat = "text"
    static let logFormat = ServerSetting("log-format", valueName: "format", default: code(defaultLogFormat),
        "`json`: one JSON object per line on standard error (see [Logs](#logs))")
    static let oidcProviders = ServerSetting("oidc-provider", variable: "ONTHEMAP_OIDC_PROVIDERS", valueName: "settings", default: "none", """
        an OpenID Connect provider students may sign in with, repeatable: `id=…,name=…,issuer=…,client-id=…,client-secret-file=…` \
        (or `client-secret=…`), and `trust-email` for a provider that vouches for every email it gives (see \
        [Sign in with a school account](#sign-in-with-a-school-account)); needs `--public-url`, and PUBLIC_URL/v1/oidc/ID/callback \
        registered with the provider; the variable separates providers with `;`
        """)
    static let secretFile = ServerSetting(
        "secret-file", valueName: "path", default: "`onthemap.secret` beside a SQLite database, `./onthemap.secret` for PostgreSQL", """
        the server's secret (at least 32 characters; created with 64 random hex digits, readable by its owner only, when \
        missing): keys what the database keeps about requests, and stays out of it. Every instance of one database needs the \
        same file; the database refuses another
        """)
    static let adoptSecret = ServerSetting("adopt-secret", flagOnly: true, default: "off", """
        make this secret the database's own when it was served with another (the old one lost, or a restored copy on a new \
        machine); the kept idempotency answers are dropped
        """)
    static let metricsAddress = ServerSetting("metrics-address", valueName: "host:port", default: "off", """
        serve Prometheus metrics at `http://host:port/metrics` on an address of their own, e.g. `127.0.0.1:9464` (see \
        [Metrics](#metrics)); keep it off the public network
        """)
}

/// The defaults shown are the values the server starts with.
private let configuration = AppConfiguration()
private let edge = EdgeLimits()
private func code(_ value: some CustomStringConvertible) -> String { "`\(value)`" }
private func seconds(_ duration: Duration) -> String { code(duration.components.seconds) }
private func milliseconds(_ duration: Duration) -> String {
    code(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
}
