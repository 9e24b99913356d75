public import Foundation
public import OpenAPIRuntime
internal import OpenAPIURLSession

/// A client of one On The Map server: accounts, pins, the geocoder and the live feed.
///
/// ```swift
/// let client = OnTheMapClient(baseURL: URL(string: "https://map.example.edu")!)
/// try await client.logIn(email: "ada@example.com", password: "correct horse battery")
/// for pin in try await client.latest(limit: 100) { print(pin.firstName, pin.mapString) }
/// ```
///
/// Every call throws ``OnTheMapError``. The session is kept in the ``SessionStore`` given (in
/// memory unless told otherwise) and sent as a bearer token. Writes carry an `Idempotency-Key`, so a
/// write whose answer was lost is sent again once and done once.
///
/// A client uses the server's default course until pointed at another with ``course(_:)``, or
/// made with a course's address as its base URL (`https://map.example.edu/c/cs101/`): see
/// <doc:UsingCourses>.
public struct OnTheMapClient: Sendable {
    /// The server's address: its root, without a course's path or a trailing slash.
    public let baseURL: URL
    /// The course whose map the calls use (its slug), or nil for the default course at the root paths.
    public let courseSlug: String?
    public let sessionStore: any SessionStore
    /// The generated client, for the calls.
    let api: Client
    /// The same operations over a transport that hands the body over as it arrives: the event stream.
    let streaming: Client
    /// What the clients were made with, to make the same client for another course.
    private let transport: any ClientTransport
    private let eventStreamTransport: any ClientTransport

    /// A client over URLSession (FoundationNetworking on Linux).
    public init(baseURL: URL, sessionStore: any SessionStore = InMemorySessionStore()) {
        self.init(baseURL: baseURL, transport: URLSessionTransport(), eventStreamTransport: EventStreamTransport.platformDefault,
                  sessionStore: sessionStore)
    }

    /// A client over any OpenAPI transport. `eventStreamTransport` carries `liveUpdates()`, which
    /// needs the body as it arrives and no overall timeout; it defaults to `transport`.
    public init(
        baseURL: URL, transport: any ClientTransport, eventStreamTransport: (any ClientTransport)? = nil,
        sessionStore: any SessionStore = InMemorySessionStore()
    ) {
        self.init(address: ServerAddress(baseURL), transport: transport, eventStreamTransport: eventStreamTransport ?? transport,
                  sessionStore: sessionStore)
    }

    private init(
        address: ServerAddress, transport: any ClientTransport, eventStreamTransport: any ClientTransport, sessionStore: any SessionStore
    ) {
        baseURL = address.root
        courseSlug = address.course
        self.sessionStore = sessionStore
        self.transport = transport
        self.eventStreamTransport = eventStreamTransport
        let course: [any ClientMiddleware] = address.course.map { [CoursePathPrefixing(slug: $0)] } ?? []
        let calls: [any ClientMiddleware] = [RetryOnceWithKey(), BearerSession(store: sessionStore), ErrorAnswers(), UdacityPrefixStripping()]
        let dates = Configuration(dateTranscoder: WireDateTranscoder())
        api = Client(serverURL: address.root, configuration: dates, transport: transport, middlewares: calls + course)
        streaming = Client(serverURL: address.root, configuration: dates, transport: eventStreamTransport,
                           middlewares: [BearerSession(store: sessionStore), ErrorAnswers()] + course)
    }

    /// The same client (server, transports, session) on another course's map: its list, pins,
    /// live updates, `me` and logins go under `/c/{slug}/`; nil is the default course, at the root.
    /// The server's own calls (sign-up, the geocoder, ``myCourses()``) stay at the root.
    ///
    /// ```swift
    /// let cs101 = client.course("cs101")
    /// let pins = try await cs101.latest()
    /// ```
    public func course(_ slug: String?) -> OnTheMapClient {
        OnTheMapClient(address: ServerAddress(root: baseURL, course: slug), transport: transport,
                       eventStreamTransport: eventStreamTransport, sessionStore: sessionStore)
    }

    // MARK: Accounts

    /// Makes an account and logs in to it. The password needs 8 to 128 characters and must not be
    /// one of the most common passwords or a run like `12345678` (``OnTheMapError/Kind/invalid``).
    @discardableResult
    public func signUp(email: String, password: String, firstName: String, lastName: String) async throws(OnTheMapError) -> Session {
        let body = Components.Schemas.SignUp(email: email, password: password, firstName: firstName, lastName: lastName)
        let login = try await call { try await api.signUp(body: .json(body)).created.body.json }
        return try await keep(login)
    }

    /// Logs in with an email and password (``OnTheMapError/Kind/wrongCredentials`` when either is
    /// wrong). At a course's path the account must be a member (``OnTheMapError/Kind/notACourseMember``);
    /// the session works on every course the account belongs to.
    @discardableResult
    public func logIn(email: String, password: String) async throws(OnTheMapError) -> Session {
        let body = Components.Schemas.Credentials(udacity: .init(username: email, password: password))
        let login = try await call { try await api.udacitySessionLogin(body: .json(body)).ok.body.json }
        return try await keep(login)
    }

    /// Where a browser signs in with a school account (OpenID Connect): open it in a web view or the
    /// system browser. The server finishes the sign-in in its web app, which then holds the session.
    public func signInURL(provider: String) -> URL {
        baseURL.appendingPathComponent("v1/oidc").appendingPathComponent(provider).appendingPathComponent("start")
    }

    /// Ends the session on the server and forgets it here. Safe to call when logged out. The session
    /// is forgotten here even when the server cannot be told (no network): the error says so.
    public func logOut() async throws(OnTheMapError) {
        do {
            _ = try await call { try await api.udacitySessionLogout().ok }
        } catch {
            try await sessionStore.keeping(nil)
            throw error
        }
        try await sessionStore.keeping(nil)
    }

    /// The session kept, if any (it may have expired on the server since).
    public func currentSession() async throws(OnTheMapError) -> Session? {
        do { return try await sessionStore.load() } catch {
            throw OnTheMapError(kind: .sessionStorage, message: String(describing: error))
        }
    }

    /// The logged-in account, and its pin in this client's course (``OnTheMapError/Kind/notLoggedIn``
    /// without a session).
    public func me() async throws(OnTheMapError) -> Me {
        let me = try await call { try await api.me().ok.body.json }
        let account = Account(key: me.account.key, email: me.account.email, firstName: me.account.firstName,
                              lastName: me.account.lastName, isAdmin: me.account.isAdmin)
        var location: StudentLocation?
        if case .StudentLocation(let wire)? = me.location { location = try StudentLocation(wire) }
        return Me(account: account, location: location, locationHidden: me.locationHidden, locationAwaitingApproval: me.locationAwaitingApproval)
    }

    // MARK: Shared

    func call<Answer>(_ work: () async throws -> Answer) async throws(OnTheMapError) -> Answer {
        try await callingServer(work)
    }

    private func keep(_ login: Components.Schemas.Login) async throws(OnTheMapError) -> Session {
        let session = Session(login)
        try await sessionStore.keeping(session)
        return session
    }
}
