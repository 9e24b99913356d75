import Hummingbird
import Logging
import OnTheMapGeocoder
import OnTheMapModel
import OnTheMapStore

/// Everything the routes and the middleware serve with, built once from the configuration and the
/// store: `buildRouter` only hands these to route groups. The one place where a service's
/// implementation and its limits are chosen.
struct AppServices: Sendable {
    let store: any AppStore
    /// The LTI tool's signing keys, published at /lti/jwks.
    let ltiKeys: LTIToolKeys
    /// The linked learning platforms' class lists and grade books.
    let ltiRoster: LTIRoster
    let ltiGrades: LTIGrades
    /// Launches from learning platforms; nil without `--public-url`, which their launch URL needs.
    let ltiLaunches: LTILaunchService?
    let clock: WallClock
    let cookies: SessionCookies
    let authenticator: SessionAuthenticator
    /// Whose address a request comes from (the proxy rule).
    let addresses: any ClientAddressRule
    let accounts: AccountService
    let locations: LocationService
    /// The default list's answer, kept for the HTTP edge and the routes alike.
    let listCache: LatestListCache
    let hub: LocationEventHub
    /// The courses `/c/{slug}/` names, remembered for a few seconds (the HTTP edge reads it too).
    let courseDirectory: CourseDirectory
    let courses: CourseService
    let liveAdmission: LiveStreamAdmission
    let geocoder: GeocoderState
    let geocoderUpstream: NominatimClient?
    let upstreamCache: UpstreamCache
    let geocodeLimiter: any RateLimiter
    let admin: AdminService
    let signIn: SignInService
    /// The web client's files, read once.
    let webClient: WebController
    /// The headers every answer gets, the Content-Security-Policy among them (it names the page's style).
    let answerFinish: AnswerFinish

    /// What the services are built with unless a test hands its own: a cheap password hasher, a
    /// geocoder in the state a test wants, its own read lanes, a counting proxy rule or a clock it
    /// sets; everything else is built as `serve` builds it.
    struct Overrides {
        var hasher: (any PasswordHasher)?
        var geocoder: GeocoderState?
        var lanes: ReadLanes?
        var addresses: (any ClientAddressRule)?
        /// Whether the web client's gzip forms are made ahead, in the background, once serving.
        var precompressWebClient = true
        /// The clock every service reads the time from.
        var clock = WallClock.system
    }

    init(_ configuration: AppConfiguration, store: any AppStore, limits: RateLimitPlacement, logger: Logger, overrides: Overrides) throws {
        let clock = overrides.clock
        self.store = store
        self.clock = clock
        cookies = SessionCookies(secure: configuration.publicURL?.isSecure ?? false)
        authenticator = SessionAuthenticator(sessions: store, clock: clock, idleSeconds: configuration.sessionIdleSeconds)
        addresses = overrides.addresses ?? ProxyRule(trusted: configuration.trustedProxies)
        accounts = Self.accountService(configuration, store: store, limits: limits, hasher: overrides.hasher, clock: clock)
        listCache = LatestListCache(capacity: configuration.listCacheCourses)
        hub = LocationEventHub(store: store, logger: logger, heartbeat: configuration.live.heartbeat)
        courseDirectory = CourseDirectory(store: store)
        ltiKeys = LTIToolKeys(store: store, secret: configuration.secret, clock: clock)
        let ltiClient = LTIServiceClient(keys: ltiKeys)
        ltiRoster = LTIRoster(store: store, client: ltiClient, lists: .init(), logger: logger)
        ltiGrades = LTIGrades(store: store, client: ltiClient, graded: .init(), logger: logger, clock: clock)
        courses = CourseService(store: store, invites: CourseInvite(secret: configuration.secret), clock: clock) { [courseDirectory] slug in
            courseDirectory.forget(slug)
        }
        liveAdmission = LiveStreamAdmission(settings: configuration.live, connections: configuration.edge.maxConnections)
        if liveAdmission.maxStreams < configuration.live.maxStreams {
            logger.warning("Live streams are capped at \(liveAdmission.maxStreams), not \(configuration.live.maxStreams): streams may take nine tenths of the \(configuration.edge.maxConnections) connections the server may hold (--max-connections, by default the file descriptor limit less 128)")
        }
        locations = LocationService(
            store: store, writeMode: configuration.writeMode, maxListLimit: configuration.maxListLimit,
            maxSkip: configuration.maxSkip, cache: listCache, lanes: overrides.lanes ?? ReadLanes(configuration),
            anonymousWrites: limits.limiter("open-write", limit: configuration.openWritesPerMinute, windowSeconds: configuration.openWritesWindowSeconds),
            clock: clock, posted: { [ltiGrades] account, course in ltiGrades.posted(by: account, in: course) })
        geocoder = overrides.geocoder ?? GeocoderState.loadingInBackground(logger: logger)
        geocoderUpstream = configuration.geocoderUpstream.map { NominatimClient(searchURL: $0, timeout: configuration.geocoderUpstreamTimeout) }
        upstreamCache = UpstreamCache()
        geocodeLimiter = limits.limiter("geocode", limit: configuration.geocodeRequestsPerMinute, windowSeconds: configuration.geocodeRateWindowSeconds)
        admin = AdminService(store: store, clock: clock)
        signIn = SignInService(
            providers: configuration.signInProviders, store: store, accounts: accounts, publicURL: configuration.publicURL,
            starts: limits.limiter("oidc-start", limit: configuration.signInStartsPerMinute, windowSeconds: 60), clock: clock)
        if let publicURL = configuration.publicURL {
            ltiLaunches = LTILaunchService(
                store: store, accounts: accounts, courses: courses, platformKeys: LTIPlatformKeys(), toolKeys: ltiKeys, secret: configuration.secret,
                starts: limits.limiter("lti-login", limit: configuration.signInStartsPerMinute, windowSeconds: 60), origin: publicURL.origin,
                clock: clock)
        } else {
            ltiLaunches = nil
        }
        webClient = try WebController(settings: configuration.webClient, signInProviders: configuration.signInProviders)
        if let note = webClient.bundleNote { logger.warning("\(note)") }
        answerFinish = OnTheMapServer.answerFinish(configuration, styleDigests: [webClient.firstPage.styleDigest])
        listenForChanges()
    }

    /// A change of a pin empties the cached list and wakes the live streams.
    private func listenForChanges() {
        let listCache = listCache, hub = hub
        store.changes.subscribe { change in
            // A lost change channel ends the streams, but keeps the cached list: it still answers
            // while the database is away.
            if change.kind == .interrupted { return hub.interrupt(reason: "database unavailable") }
            listCache.invalidate(change.kind.course)
            hub.poke()
        }
    }

    /// Accounts, sessions and their limits: logins per email, per address and per account,
    /// sign-ups and reset links per address, and the lane that bounds password hashing.
    private static func accountService(
        _ configuration: AppConfiguration, store: any AppStore, limits: RateLimitPlacement, hasher: (any PasswordHasher)?, clock: WallClock
    ) -> AccountService {
        let hasher = hasher ?? BcryptPasswordHasher(cost: configuration.bcryptCost)
        return AccountService(
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
    }
}
