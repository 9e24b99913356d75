import Hummingbird

/// Every middleware and route group, wired to the services built once in `AppServices`.
func buildRouter(_ configuration: AppConfiguration, services: AppServices, routes: RouteTable) -> Router<AppRequestContext> {
    let store = services.store, clock = services.clock
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    // First, so that nothing runs on a live stream's connection task before it (`inChildTask`).
    router.add(middleware: LiveStreamChildTaskMiddleware())
    router.add(middleware: RequestFactsMiddleware(addresses: services.addresses, authenticator: services.authenticator))
    router.add(middleware: AnswerFinishMiddleware(services.answerFinish))
    router.add(middleware: KnownMethodsMiddleware())
    router.add(middleware: CompressionMiddleware())
    router.add(middleware: ErrorMiddleware())
    router.add(middleware: IdempotencyMiddleware(store: store, clock: clock, secret: configuration.secret, bounds: configuration.idempotencyBounds))
    if configuration.standbyReads {
        router.add(middleware: StandbyReadsMiddleware(writers: RecentWriters(), clock: clock, secure: configuration.publicURL?.isSecure ?? false))
    }

    let rules = RouteRules(
        crossSite: CrossSiteGuard(publicURL: configuration.publicURL), courses: CourseAccess(writeMode: configuration.writeMode, store: store))
    func family(_ family: PathFamily, path: String = "", adminsOnly: Bool = false) -> FamilyGroup {
        FamilyGroup(family, on: router, path: path, adminsOnly: adminsOnly, rules: rules, table: routes)
    }
    for mount in [CourseMount.root, .named(by: services.courseDirectory)] {
        addCourseFamilies(at: mount, to: router, configuration, services: services, rules: rules, routes: routes)
    }
    let native = family(.native)
    NativeController(accounts: services.accounts, locations: store, cookies: services.cookies).addRoutes(to: native)
    HealthController(health: store, geocoder: services.geocoder).addRoutes(to: native)
    GeocodeController(
        state: services.geocoder, upstream: services.geocoderUpstream, upstreamCache: services.upstreamCache, limiter: services.geocodeLimiter
    ).addRoutes(to: native)
    ReportController(store: store, accounts: services.accounts, courses: rules.courses, clock: clock).addRoutes(to: native)
    AdminController(
        service: services.admin, locations: store, publicURL: configuration.publicURL,
        confirmationSeconds: configuration.adminPasswordConfirmationSeconds, clock: clock)
        .addRoutes(to: family(.native, path: AdminController.basePath, adminsOnly: true))
    AdminLTIController(
        registration: LTIRegistration(store: store, secret: configuration.secret, clock: clock), publicURL: configuration.publicURL,
        confirmationSeconds: configuration.adminPasswordConfirmationSeconds, clock: clock)
        .addRoutes(to: family(.native, path: AdminController.basePath, adminsOnly: true))
    // Served with no provider configured too: an old link to one then says it is not set up.
    SignInController(service: services.signIn, cookies: services.cookies).addRoutes(to: family(.native))
    CourseController(service: services.courses, store: store, geocoder: services.geocoder, publicURL: configuration.publicURL,
                     courseCreators: configuration.courseCreators, roster: services.ltiRoster, grades: services.ltiGrades)
        .addRootRoutes(to: family(.native))
    LTIController(
        keys: services.ltiKeys, launches: services.ltiLaunches, cookies: services.cookies, authenticator: services.authenticator,
        webClient: services.webClient, secret: configuration.secret
    ).addRoutes(to: family(.native))
    services.webClient.addRoutes(to: family(.native))
    return router
}

/// The families a course serves (`CourseMount`), registered at `mount`: the Udacity session and
/// users, the three location families with the live stream, and the course's own operations.
private func addCourseFamilies(
    at mount: CourseMount, to router: Router<AppRequestContext>, _ configuration: AppConfiguration, services: AppServices,
    rules: RouteRules, routes: RouteTable
) {
    func family(_ family: PathFamily) -> FamilyGroup {
        FamilyGroup(family, on: router, mount: mount, rules: rules, table: routes)
    }
    let udacity = family(.udacity)
    SessionController(accounts: services.accounts, cookies: services.cookies, courses: rules.courses, clock: services.clock).addRoutes(to: udacity)
    UserController(accounts: services.store, authenticator: services.authenticator).addRoutes(to: udacity)
    for operations in LocationOperations.families {
        let locationRoutes = family(operations.family)
        // Before the family's `/:objectId` routes, though the router prefers a constant path anyway.
        if operations.family == .v1Locations {
            LiveEventsController(
                hub: services.hub, log: services.store, admission: services.liveAdmission, settings: configuration.live, rules: rules.courses,
                directory: services.courseDirectory
            ).addRoutes(to: locationRoutes)
        }
        StudentLocationController(operations: operations, service: services.locations, publicURL: configuration.publicURL)
            .addRoutes(to: locationRoutes)
    }
    let course = family(.native)
    NativeController(accounts: services.accounts, locations: services.store, cookies: services.cookies).addCourseRoutes(to: course)
    CourseController(service: services.courses, store: services.store, geocoder: services.geocoder, publicURL: configuration.publicURL,
                     courseCreators: configuration.courseCreators, roster: services.ltiRoster, grades: services.ltiGrades)
        .addRoutes(to: course)
    CourseModerationController(service: services.admin, locations: services.store).addRoutes(to: course)
}
