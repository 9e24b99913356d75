import Hummingbird
import Logging
import OnTheMapGeocoder
import OnTheMapModel
import OnTheMapStore

/// Every route and middleware, over any store.
func buildRouter(
    _ configuration: AppConfiguration, store: some AppStore, logger: Logger, parts: AppParts, listCache: LatestListCache,
    limits: RateLimitPlacement, routes: RouteTable
) async throws -> Router<AppRequestContext> {
    let clock = parts.clock
    let geocoder = parts.geocoder ?? GeocoderState.loadingInBackground(logger: logger)
    let hasher = parts.hasher ?? BcryptPasswordHasher(cost: configuration.bcryptCost)
    let cookies = SessionCookies(secure: configuration.publicURL?.isSecure ?? false)
    let authenticator = SessionAuthenticator(sessions: store, clock: clock, idleSeconds: configuration.sessionIdleSeconds)
    let accounts = AccountService(
        accounts: store, sessions: store, hasher: hasher,
        hashing: WorkLane(
            name: "password checks", concurrency: configuration.passwordHashConcurrency, queueLimit: configuration.passwordHashQueue,
            perKeyLimit: configuration.passwordHashesPerAddress),
        decoyHash: ComputedOnce { try await hasher.hash(Identifiers.token()) },
        loginFailures: limits.limiter("login", limit: configuration.loginThrottleLimit, windowSeconds: configuration.loginThrottleWindowSeconds),
        addressLoginFailures: limits.limiter(
            "login-address", limit: configuration.loginFailuresPerAddressPerMinute, windowSeconds: configuration.addressLoginFailureWindowSeconds),
        accountLoginFailures: limits.limiter(
            "login-account", limit: configuration.loginFailuresPerAccount, windowSeconds: configuration.accountLoginFailureWindowSeconds),
        devices: DeviceCookie(secret: configuration.secret),
        resetFailures: limits.limiter(
            "password-reset", limit: configuration.passwordResetFailuresPerAddress, windowSeconds: configuration.passwordResetWindowSeconds),
        signUps: limits.limiter("signup", limit: configuration.signUpsPerAddressPer10Minutes, windowSeconds: configuration.signUpWindowSeconds),
        sessionLifetimeSeconds: configuration.sessionLifetimeSeconds, sessionIdleSeconds: configuration.sessionIdleSeconds, clock: clock)
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
        maxSkip: configuration.maxSkip, cache: listCache, lanes: parts.lanes ?? ReadLanes(configuration),
        anonymousWrites: limits.limiter("open-write", limit: configuration.openWritesPerMinute, windowSeconds: configuration.openWritesWindowSeconds),
        clock: clock)

    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestFactsMiddleware(addresses: parts.addresses ?? ProxyRule(trusted: configuration.trustedProxies), authenticator: authenticator))
    router.add(middleware: AnswerFinishMiddleware(answerFinish(configuration)))
    router.add(middleware: KnownMethodsMiddleware())
    router.add(middleware: CompressionMiddleware())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: IdempotencyMiddleware(store: store, clock: clock, secret: configuration.secret, bounds: configuration.idempotencyBounds))

    let crossSite = CrossSiteGuard(publicURL: configuration.publicURL)
    func family(
        _ family: PathFamily, path: String = "", behind middleware: [any MiddlewareProtocol<Request, Response, AppRequestContext>] = [],
        described: Bool = true
    ) -> FamilyGroup {
        FamilyGroup(family, on: router, path: path, crossSite: crossSite, middleware: middleware, table: described ? routes : nil)
    }
    let udacity = family(.udacity)
    SessionController(accounts: accounts, cookies: cookies, clock: clock).addRoutes(to: udacity)
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
    ReportController(store: store, accounts: accounts, clock: clock).addRoutes(to: native)
    AdminController(
        service: AdminService(store: store, clock: clock), locations: store, publicURL: configuration.publicURL,
        confirmationSeconds: configuration.adminPasswordConfirmationSeconds, clock: clock)
        .addRoutes(to: family(.native, path: AdminController.basePath, behind: [AdminGuard()]))
    // Served with no provider configured too: an old link to one then says it is not set up.
    SignInController(
        service: SignInService(
            providers: configuration.signInProviders, store: store, accounts: accounts, publicURL: configuration.publicURL,
            starts: limits.limiter("oidc-start", limit: configuration.signInStartsPerMinute, windowSeconds: 60), clock: clock),
        cookies: cookies
    ).addRoutes(to: family(.native))
    let web = try WebController(settings: configuration.webClient, signInProviders: configuration.signInProviders)
    web.addRoutes(to: family(.native, described: false))
    if parts.precompressWebClient { Task(priority: .background) { await web.precompress() } }
    return router
}
