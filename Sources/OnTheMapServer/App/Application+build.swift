import Hummingbird
import Logging
import OnTheMapGeocoder
import OnTheMapModel
import OnTheMapStore

/// The store the server runs on: every repository in one, and the feed of location changes.
typealias AppStore = AccountStore & SessionStore & LocationStore & StoreHealth & LocationChangeAnnouncing & RateLimitStore & LeaseStore & IdempotencyStore
    & LocationEventStore & ModerationStore & ExternalLoginStore & CourseStore & LTIStore

/// Builds the whole server on an open database. The only place where implementations are chosen.
/// The caller owns `database` and closes it once the application has stopped, however it stopped.
public func buildApplication(
    _ configuration: AppConfiguration, database: any DatabaseEngine, logger: Logger
) async throws -> some ApplicationProtocol {
    try await buildApplication(configuration, database: database, logger: logger, overrides: AppServices.Overrides()).application
}

/// The application, the edge it serves through (whose fast path the tests count), the
/// operations its routes serve (which the tests hold the OpenAPI document to) and the courses it
/// remembers (which a test that changes one behind the server's back makes it forget).
struct BuiltApplication {
    let application: Application<RouterResponder<AppRequestContext>>
    let edge: HTTPEdge
    let routes: RouteTable
    let courses: CourseDirectory
}

/// The one construction behind `serve` and every test.
func buildApplication(
    _ configuration: AppConfiguration, database: any DatabaseEngine, logger: Logger, overrides: AppServices.Overrides
) async throws -> BuiltApplication {
    try configuration.check()
    let store = database.store
    let clock = overrides.clock
    try await checkSecret(configuration, store: store, logger: logger, clock: clock)
    let services = try AppServices(
        configuration, store: store, limits: database.servesManyInstances ? .database(store, clock: clock) : .memory, logger: logger,
        overrides: overrides)
    let routes = RouteTable()
    let router = buildRouter(configuration, services: services, routes: routes)
    let edge = makeEdge(configuration, services: services, logger: logger)
    var app = Application(
        router: router,
        server: edge.server,
        // No `serverName`: `AnswerFinish` adds `Server` on every road.
        configuration: .init(address: .hostname(configuration.host, port: configuration.port)),
        onServerRunning: { channel in
            // Says where to point a browser, with the real port when --port 0 picked one.
            let port = channel.localAddress?.port ?? configuration.port
            let origin = configuration.publicURL?.origin ?? "http://\(browserHost(configuration.host)):\(port)"
            logger.notice("Web app: open \(origin)/ in a browser")
        },
        logger: logger)
    app.addServices(
        SessionSweeper(store: store, rateEventLifetimeSeconds: configuration.longestRateWindowSeconds, logger: logger, clock: clock),
        ExternalWriteWatch(database: database, interval: configuration.externalWriteCheckInterval, logger: logger))
    if MetricsRecording.isOn { app.addServices(IdempotencyTableGauge(store: store, logger: logger)) }
    if overrides.precompressWebClient { Task(priority: .background) { await services.webClient.precompress() } }
    return BuiltApplication(application: app, edge: edge, routes: routes, courses: services.courseDirectory)
}

/// Records the server's secret's digest in a database served for the first time, and refuses to
/// serve one that another secret served: its instances would not recognise each other's
/// idempotency keys.
private func checkSecret(_ configuration: AppConfiguration, store: some AppStore, logger: Logger, clock: WallClock) async throws {
    let digest = configuration.secret.checkDigest
    switch try await store.recordServerSecretDigest(digest, replacing: configuration.adoptSecret, now: clock.nowMillis()) {
    case .recorded where configuration.adoptSecret:
        logger.notice("This secret is now the database's own; the answers kept for Idempotency-Key were dropped.")
    case .recorded:
        break
    case .differs:
        throw ConfigurationError("""
            The database was served with another secret than this instance's (--secret-file). Every instance of one database \
            needs the same secret file: copy it from one that runs. If that secret is lost, or this database was restored onto a \
            new machine, start once with --adopt-secret to make this one its own.
            """)
    }
}

/// The HTTP edge in front of the router, answering a course's default list from the list cache itself.
func makeEdge(_ configuration: AppConfiguration, services: AppServices, logger: Logger) -> HTTPEdge {
    let cachedList = CachedListFastPath.Source(
        cache: services.listCache, courses: services.courseDirectory,
        listPaths: Dictionary(uniqueKeysWithValues: LocationOperations.families.map { ($0.basePath, $0.family) }),
        maxListLimit: configuration.maxListLimit, maxSkip: configuration.maxSkip, finish: services.answerFinish, logger: logger)
    return HTTPEdge(limits: configuration.edge, finish: services.answerFinish,
                    clientsBehindProxy: !configuration.trustedProxies.isEmpty, cachedList: cachedList)
}

/// What every answer gets on its way out, routed or not; `styleDigests` name the page's inline style.
func answerFinish(_ configuration: AppConfiguration, styleDigests: [String]) -> AnswerFinish {
    AnswerFinish(security: SecurityHeaders(
        contentSecurityPolicy: ContentSecurityPolicy.header(tiles: configuration.webClient.tiles, styleDigests: styleDigests),
        publicURL: configuration.publicURL))
}

/// The host to put in a URL for a browser: a wildcard address means this machine.
private func browserHost(_ host: String) -> String {
    switch host {
    case "0.0.0.0", "": return "127.0.0.1"
    case "::": return "[::1]"
    default: return host.contains(":") ? "[\(host)]" : host
    }
}
