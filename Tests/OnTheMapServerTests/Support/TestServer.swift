import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import OnTheMapGeocoder
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit

/// A server on a fresh database of the engine under test (`TestEngine.current`), driven through
/// Hummingbird's router test client (or, with `live`, over a real socket on 127.0.0.1 with the
/// server's own HTTP setup).
struct TestServer {
    let client: any TestClientProtocol
    /// The same store the server writes to, for checking what a request changed.
    let store: SQLStore
    let database: any DatabaseEngine
    /// The edge the live server runs behind (its fast path's count of answers, for one).
    let edge: HTTPEdge
    /// The operations the server's routes serve.
    let routes: RouteTable
    /// The courses the server remembers.
    let courseDirectory: CourseDirectory

    /// Runs `body` against a new server built as `serve` builds it; `configure` adjusts the test
    /// defaults (bcrypt cost 4, windows of an hour), and client addresses come from
    /// `X-Forwarded-For` (or `addresses`) so that throttling can be tested per address.
    static func run(
        configure: (inout AppConfiguration) -> Void = { _ in },
        readBudget: Duration = .seconds(600),
        hasher: (any PasswordHasher)? = nil,
        geocoder: GeocoderState = GeocoderState(.loading),
        lanes: ReadLanes? = nil,
        live: Bool = false,
        logger testLogger: Logger? = nil,
        addresses: (any ClientAddressRule)? = nil,
        clock: WallClock = .system,
        _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        let configuration = testConfiguration(configure)
        // Addresses come from X-Forwarded-For (throttling tests) while the edge still limits
        // connections per TCP peer, as it does without --trust-proxy.
        let overrides = AppServices.Overrides(
            hasher: hasher, geocoder: geocoder, lanes: lanes,
            addresses: addresses ?? ProxyRule(trusted: .loopback), precompressWebClient: false, clock: clock)
        let logger = testLogger ?? .quiet
        try await TestDatabase.withFresh { fresh in
            try await serve(fresh, configuration, readBudget: readBudget, overrides: overrides, live: live, logger: logger, body)
        }
    }

    /// Two servers on one fresh database, as two instances of a deployment: each its own process
    /// state (caches, change channel), the database shared.
    static func runTwoInstances(_ body: @Sendable (_ a: TestServer, _ b: TestServer) async throws -> Void) async throws {
        let configuration = testConfiguration { _ in }
        let overrides = AppServices.Overrides(addresses: ProxyRule(trusted: .loopback), precompressWebClient: false)
        try await TestDatabase.withFresh { fresh in
            try await serve(fresh, configuration, overrides: overrides, logger: .quiet) { a in
                try await serve(fresh, configuration, overrides: overrides, logger: .quiet) { b in try await body(a, b) }
            }
        }
    }

    /// The test defaults (bcrypt cost 4, windows of an hour), adjusted by `configure`.
    private static func testConfiguration(_ configure: (inout AppConfiguration) -> Void) -> AppConfiguration {
        var configuration = AppConfiguration()
        configuration.bcryptCost = 4
        // Limits count within an hour rather than a minute: a test's requests may be spread over
        // more than a minute on a machine running every suite at once.
        configuration.loginThrottleWindowSeconds = 3600
        configuration.addressLoginFailureWindowSeconds = 3600
        configuration.signUpWindowSeconds = 3600
        configuration.openWritesWindowSeconds = 3600
        configuration.geocodeRateWindowSeconds = 3600
        configuration.accountLoginFailureWindowSeconds = 3600
        configuration.passwordResetWindowSeconds = 3600
        configure(&configuration)
        return configuration
    }

    /// Opens `fresh` and runs `body` against a server on it.
    private static func serve(
        _ fresh: TestDatabase, _ configuration: AppConfiguration, readBudget: Duration = .seconds(600), overrides: AppServices.Overrides,
        live: Bool = false, logger: Logger, _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let database = try await fresh.open(readBudget: readBudget, logger: logger)
        do {
            let built = try await buildApplication(configuration, database: database, logger: logger, overrides: overrides)
            try await built.application.test(live ? .live : .router) { client in
                try await body(TestServer(client: client, store: database.store, database: database, edge: built.edge, routes: built.routes, courseDirectory: built.courses))
            }
        } catch {
            try? await database.close()
            throw error
        }
        // A test may have closed it already (readiness); closing twice is harmless.
        try? await database.close()
    }

    /// Sends a request; `body` is sent as written (a string, so broken JSON can be sent too).
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, body: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// Signs up a student and returns their session.
    func signUp(
        email: String = "student\(UUID().uuidString.prefix(8).lowercased())@example.com", password: String = "correct horse",
        first: String = "Ada", last: String = "Lovelace"
    ) async throws -> TestSession {
        let fields = ["email": email, "password": password, "firstName": first, "lastName": last]
        let response = try await send(.post, "/v1/accounts", body: String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self))
        guard response.status == .created else { throw TestFailure("sign-up answered \(response.status): \(response.text)") }
        let login = try JSONDecoder().decode(StrictLogin.self, from: response.data)
        return TestSession(key: login.account.key, token: login.session.id, email: email, password: password,
                           cookies: response.setCookies)
    }

    /// Makes an existing account an admin, directly in the store.
    func makeAdmin(_ session: TestSession) async throws {
        try await store.writer.run(SQLQueryString("UPDATE accounts SET is_admin = TRUE WHERE key = \(bind: session.key)"))
        // As the admin tools do (`setAdmin`): the sessions the server keeps learn of it at once.
        await store.sessionsChanged(of: [session.key])
    }

    /// Posts a location as `session` on the v1 path and returns its objectId.
    @discardableResult
    func postLocation(
        as session: TestSession?, mapString: String = "Seattle, WA", mediaURL: String = "https://example.com",
        latitude: Double = 47.6, longitude: Double = -122.3, path: String = "/v1/StudentLocation", extraHeaders: HTTPFields = [:]
    ) async throws -> String {
        var headers = session?.cookieHeader ?? [:]
        headers.append(contentsOf: extraHeaders)
        let response = try await send(.post, path, body: """
            {"uniqueKey": "ignored", "firstName": "Body", "lastName": "Name", "mapString": "\(mapString)",
             "mediaURL": "\(mediaURL)", "latitude": \(latitude), "longitude": \(longitude)}
            """, headers: headers)
        guard response.status.code / 100 == 2 else { throw TestFailure("post answered \(response.status): \(response.text)") }
        return try JSONDecoder.strict.decode(StrictCreated.self, from: response.data).objectId
    }

    /// Everything the store holds, for "a rejected request changes nothing" checks.
    func snapshot() async throws -> StoreSnapshot {
        let page = try await store.locations(LocationQuery(limit: 100_000, order: [SortKey(.objectId, descending: false)]), in: .default)
        let accounts = try await store.allAccounts()
        let sessions = try await store.reader.raw("SELECT COUNT(*) AS n FROM sessions").first()!.decode(column: "n", as: Int.self)
        return StoreSnapshot(locations: page.results, accounts: accounts, sessionCount: sessions)
    }
}

extension TestServer {
    /// The bundled gazetteer, loaded on first use and once per test process: only the suites that
    /// pass it pay for loading it. Others get a geocoder that stays "loading".
    static var loadedGeocoder: GeocoderState {
        get async { try! await bundledGazetteer.value }
    }

    /// Loads on a thread of its own (seconds of CPU, which on the concurrency pool held up the live
    /// servers of every other test); the `static let` itself only starts the task.
    private static let bundledGazetteer = Task {
        try await onItsOwnThread { GeocoderState(.ready(Geocoder(gazetteer: try Gazetteer.load()))) }
    }
}

/// Everything stored, comparable.
struct StoreSnapshot: Equatable {
    let locations: [StudentLocation]
    let accounts: [Account]
    let sessionCount: Int
}

/// A logged-in student.
struct TestSession {
    let key: String
    let token: String
    let email: String
    let password: String
    /// `name=value` of each cookie set at login.
    let cookies: [String: String]

    /// The `Cookie` header a native client's URL session would send back.
    var cookieHeader: HTTPFields {
        [.cookie: cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")]
    }

    var bearerHeader: HTTPFields { [.authorization: "Bearer \(token)"] }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TestResponse {
    var data: Data { Data(buffer: body) }
    var bytes: [UInt8] { Array(data) }
    var text: String { String(decoding: data, as: UTF8.self) }

    /// The body with the Udacity prefix removed exactly as clients do (`subdata(in: 5..<count)`),
    /// failing when the prefix is not there.
    func unprefixed() throws -> Data {
        guard bytes.count >= 5, Array(bytes[0..<5]) == UdacityPrefix.bytes else {
            throw TestFailure("missing )]}' prefix: \(text)")
        }
        return data.subdata(in: 5..<data.count)
    }

    /// `name → value` of every `Set-Cookie`.
    var setCookies: [String: String] {
        var cookies: [String: String] = [:]
        for header in headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            cookies[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
        }
        return cookies
    }

    /// The full `Set-Cookie` line for `name`.
    func setCookieLine(_ name: String) -> String? {
        headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
    }

    /// The body as a JSON object (no prefix expected).
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(text)")
        }
        return object
    }
}

/// Both header sets, in order.
func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var fields = lhs
    fields.append(contentsOf: rhs)
    return fields
}
