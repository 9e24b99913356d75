import Hummingbird
import Logging
import OnTheMapGeocoder
import OnTheMapModel
import OnTheMapStore

/// The store the server runs on: every repository in one, and the feed of location changes.
typealias AppStore = AccountStore & SessionStore & LocationStore & StoreHealth & LocationChangeAnnouncing & RateLimitStore & LeaseStore & IdempotencyStore
    & LocationEventStore & ModerationStore & ExternalLoginStore

/// Builds the whole server on an open database. The only place where implementations are chosen.
/// The caller owns `database` and closes it once the application has stopped, however it stopped.
public func buildApplication(
    _ configuration: AppConfiguration, database: any DatabaseEngine, logger: Logger
) async throws -> some ApplicationProtocol {
    try await buildApplication(configuration, database: database, logger: logger, parts: AppParts()).application
}

/// What `buildApplication` makes itself unless it is handed one. The test harness hands a cheap
/// password hasher, a geocoder in the state a test wants, its own read lanes or a counting proxy
/// rule, and skips compressing the web client ahead; everything else is built as `serve` builds it.
struct AppParts {
    var hasher: (any PasswordHasher)?
    var geocoder: GeocoderState?
    var lanes: ReadLanes?
    var addresses: (any ClientAddressRule)?
    var precompressWebClient = true
}

/// The application, the edge it serves through (whose fast path the tests count), and the
/// operations its routes serve (which the tests hold the OpenAPI document to).
struct BuiltApplication {
    let application: Application<RouterResponder<AppRequestContext>>
    let edge: HTTPEdge
    let routes: RouteTable
}

/// The one construction behind `serve` and every test.
func buildApplication(
    _ configuration: AppConfiguration, database: any DatabaseEngine, logger: Logger, parts: AppParts
) async throws -> BuiltApplication {
    let store = database.store
    let listCache = LatestListCache()
    let routes = RouteTable()
    let router = try await buildRouter(
        configuration, store: store, logger: logger, hasher: parts.hasher, geocoder: parts.geocoder, lanes: parts.lanes,
        listCache: listCache, limits: database.servesManyInstances ? .database(store) : .memory,
        precompressWebClient: parts.precompressWebClient, addresses: parts.addresses, routes: routes)
    let edge = makeEdge(configuration, listCache: listCache, logger: logger)
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
        SessionSweeper(store: store, rateEventLifetimeSeconds: configuration.longestRateWindowSeconds, logger: logger),
        ExternalWriteWatch(database: database, interval: configuration.externalWriteCheckInterval, logger: logger))
    return BuiltApplication(application: app, edge: edge, routes: routes)
}

/// Sign-in providers without a public URL: the callback address they redirect to is unknown.
struct SignInSetupError: Error, CustomStringConvertible {
    static let needsPublicURL = SignInSetupError()
    var description: String {
        "--oidc-provider needs --public-url: each provider must be told the address it sends students back to (PUBLIC_URL/v1/oidc/ID/callback)."
    }
}

/// The HTTP edge in front of the router, answering the default list from `listCache` itself.
func makeEdge(_ configuration: AppConfiguration, listCache: LatestListCache, logger: Logger) -> HTTPEdge {
    let cachedList = CachedListFastPath.Source(
        cache: listCache, listPaths: Dictionary(uniqueKeysWithValues: StudentLocationController.families),
        maxListLimit: configuration.maxListLimit, maxSkip: configuration.maxSkip, finish: answerFinish(configuration), logger: logger)
    return HTTPEdge(limits: configuration.edge, finish: answerFinish(configuration),
                    clientsBehindProxy: configuration.trustForwardedFor, cachedList: cachedList)
}

/// What every answer gets on its way out, routed or not.
func answerFinish(_ configuration: AppConfiguration) -> AnswerFinish {
    AnswerFinish(security: SecurityHeaders(
        contentSecurityPolicy: ContentSecurityPolicy.header(tiles: configuration.webClient.tiles), publicURL: configuration.publicURL))
}

/// The host to put in a URL for a browser: a wildcard address means this machine.
private func browserHost(_ host: String) -> String {
    switch host {
    case "0.0.0.0", "": return "127.0.0.1"
    case "::": return "[::1]"
    default: return host.contains(":") ? "[\(host)]" : host
    }
}

/// Every route and middleware, over any store.
func buildRouter(
    _ configuration: AppConfiguration, store: some AppStore, logger: Logger, hasher: (any PasswordHasher)?,
    geocoder: GeocoderState?, lanes: ReadLanes?, listCache: LatestListCache,
    limits: RateLimitPlacement, precompressWebClient: Bool, addresses: (any ClientAddressRule)?, routes: RouteTable
) async throws -> Router<AppRequestContext> {
    let geocoder = geocoder ?? GeocoderState.loadingInBackground(logger: logger)
    let hasher = hasher ?? BcryptPasswordHasher(cost: configuration.bcryptCost)
    let cookies = SessionCookies(secure: configuration.publicURL?.isSecure ?? false)
    let authenticator = SessionAuthenticator(sessions: store)
    let accounts = AccountService(
        accounts: store, sessions: store, hasher: hasher,
        hashing: WorkLane(
            name: "password checks", concurrency: configuration.passwordHashConcurrency, queueLimit: configuration.passwordHashQueue,
            perKeyLimit: configuration.passwordHashesPerAddress),
        decoyHash: ComputedOnce { try await hasher.hash(Identifiers.token()) },
        loginFailures: limits.limiter("login", limit: configuration.loginThrottleLimit, windowSeconds: configuration.loginThrottleWindowSeconds),
        addressLoginFailures: limits.limiter(
            "login-address", limit: configuration.loginFailuresPerAddressPerMinute, windowSeconds: configuration.addressLoginFailureWindowSeconds),
        signUps: limits.limiter("signup", limit: configuration.signUpsPerAddressPer10Minutes, windowSeconds: configuration.signUpWindowSeconds),
        sessionLifetimeSeconds: configuration.sessionLifetimeSeconds)
    let hub = LocationEventHub(store: store, logger: logger)
    store.changes.subscribe { change in
        // A lost change channel ends the streams, but keeps the cached list: it still answers
        // while the database is away.
        if change.kind == .interrupted { return hub.interrupt(reason: "database unavailable") }
        listCache.invalidate()
        hub.poke()
    }
    let locations = LocationService(
        store: store, writeMode: configuration.writeMode, maxListLimit: configuration.maxListLimit,
        maxSkip: configuration.maxSkip, cache: listCache, lanes: lanes ?? ReadLanes(configuration),
        anonymousWrites: limits.limiter("open-write", limit: configuration.openWritesPerMinute, windowSeconds: configuration.openWritesWindowSeconds))

    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestFactsMiddleware(addresses: addresses ?? ProxyRule(trustForwardedFor: configuration.trustForwardedFor), authenticator: authenticator))
    router.add(middleware: AnswerFinishMiddleware(answerFinish(configuration)))
    router.add(middleware: KnownMethodsMiddleware())
    router.add(middleware: CompressionMiddleware())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: IdempotencyMiddleware(store: store))

    let crossSite = CrossSiteGuard(publicURL: configuration.publicURL)
    func family(
        _ family: PathFamily, path: String = "", behind middleware: [any MiddlewareProtocol<Request, Response, AppRequestContext>] = [],
        described: Bool = true
    ) -> FamilyGroup {
        FamilyGroup(family, on: router, path: path, crossSite: crossSite, middleware: middleware, table: described ? routes : nil)
    }
    let udacity = family(.udacity)
    SessionController(accounts: accounts, cookies: cookies).addRoutes(to: udacity)
    UserController(accounts: store, authenticator: authenticator).addRoutes(to: udacity)
    for (basePath, pathFamily) in StudentLocationController.families {
        let locationRoutes = family(pathFamily)
        // Before the family's `/:objectId` routes, though the router prefers a constant path anyway.
        if pathFamily == .v1Locations {
            LiveEventsController(
                hub: hub, log: store, admission: LiveStreamAdmission(settings: configuration.live), settings: configuration.live
            ).addRoutes(to: locationRoutes)
        }
        StudentLocationController(basePath: basePath, service: locations, publicURL: configuration.publicURL).addRoutes(to: locationRoutes)
    }
    let native = family(.native)
    NativeController(accounts: accounts, locations: store, cookies: cookies, health: store, geocoder: geocoder).addRoutes(to: native)
    GeocodeController(
        state: geocoder,
        upstream: configuration.geocoderUpstream.map { NominatimClient(searchURL: $0, timeout: configuration.geocoderUpstreamTimeout) },
        upstreamCache: UpstreamCache(), limiter: limits.limiter("geocode", limit: configuration.geocodeRequestsPerMinute, windowSeconds: configuration.geocodeRateWindowSeconds)
    ).addRoutes(to: native)
    ReportController(store: store, accounts: accounts).addRoutes(to: native)
    AdminController(service: AdminService(store: store), locations: store, publicURL: configuration.publicURL)
        .addRoutes(to: family(.native, path: AdminController.basePath, behind: [AdminGuard()]))
    // Served with no provider configured too: an old link to one then says it is not set up.
    if !configuration.signInProviders.isEmpty, configuration.publicURL == nil { throw SignInSetupError.needsPublicURL }
    SignInController(
        service: SignInService(
            providers: configuration.signInProviders, store: store, accounts: accounts, publicURL: configuration.publicURL,
            starts: limits.limiter("oidc-start", limit: configuration.signInStartsPerMinute, windowSeconds: 60)),
        cookies: cookies
    ).addRoutes(to: family(.native))
    let web = try WebController(settings: configuration.webClient, signInProviders: configuration.signInProviders)
    web.addRoutes(to: family(.native, described: false))
    if precompressWebClient { Task(priority: .background) { await web.precompress() } }
    return router
}
