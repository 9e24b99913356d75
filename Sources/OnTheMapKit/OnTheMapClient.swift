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
public struct OnTheMapClient: Sendable {
    public let baseURL: URL
    public let sessionStore: any SessionStore
    /// The generated client, for the calls.
    let api: Client
    /// The same operations over a transport that hands the body over as it arrives: the event stream.
    let streaming: Client

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
        self.baseURL = baseURL
        self.sessionStore = sessionStore
        let calls: [any ClientMiddleware] = [RetryOnceWithKey(), BearerSession(store: sessionStore), ErrorAnswers(), UdacityPrefixStripping()]
        api = Client(serverURL: baseURL, transport: transport, middlewares: calls)
        streaming = Client(
            serverURL: baseURL, transport: eventStreamTransport ?? transport, middlewares: [BearerSession(store: sessionStore), ErrorAnswers()])
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

    /// Logs in with an email and password (``OnTheMapError/Kind/wrongCredentials`` when either is wrong).
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

    /// The logged-in account, and its pin (``OnTheMapError/Kind/notLoggedIn`` without a session).
    public func me() async throws(OnTheMapError) -> Me {
        let me = try await call { try await api.me().ok.body.json }
        let account = Account(key: me.account.key, email: me.account.email, firstName: me.account.firstName,
                              lastName: me.account.lastName, isAdmin: me.account.isAdmin)
        var location: StudentLocation?
        if case .StudentLocation(let wire)? = me.location { location = try StudentLocation(wire) }
        return Me(account: account, location: location, locationHidden: me.locationHidden)
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
