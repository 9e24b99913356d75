import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapStore
import Testing

/// The client's address is worked out once per request, by the one proxy rule, in every path family.
@Suite struct RequestFactsTests {
    /// The real rule, counting its calls and remembering each answer by path.
    final class CountingRule: ClientAddressRule {
        /// The test client and a proxy beyond it at 10.0.0.1, whose hop is not the client's.
        let rule = ProxyRule(trusted: TrustedProxies(list: "127.0.0.1, ::1, 10.0.0.0/8")!)
        let seen = NIOLockedValueBox<[(path: String, address: String)]>([])

        func address(of request: Request, peer: SocketAddress?) -> String {
            let address = rule.address(of: request, peer: peer)
            seen.withLockedValue { $0.append((request.uri.path, address)) }
            return address
        }
    }

    @Test func everyFamilyTakesTheAddressFromTheRuleOnce() async throws {
        let rule = CountingRule()
        try await TestServer.run(addresses: rule) { server in
            let student = try await server.signUp()
            rule.seen.withLockedValue { $0.removeAll() }
            let requests: [(HTTPRequest.Method, String, String?, Bool)] = [
                (.post, "/v1/session", #"{"udacity": {"username": "nobody@example.com", "password": "wrong password"}}"#, false),
                (.post, "/api/session", #"{"udacity": {"username": "nobody@example.com", "password": "wrong password"}}"#, false),
                (.get, "/v1/users/\(student.key)", nil, true),
                (.get, "/v1/StudentLocation?limit=5", nil, false),
                (.post, "/v1/StudentLocation", #"{"mapString": "Oslo", "mediaURL": "https://example.com", "latitude": 59.9, "longitude": 10.7}"#, true),
                (.get, "/parse/classes/StudentLocation?limit=3", nil, false),
                (.get, "/1/classes/StudentLocation?limit=3", nil, false),
                (.get, "/v1/me", nil, true),
                (.get, "/v1/geocode?q=Oslo", nil, false),
                (.get, "/v1/admin/accounts", nil, true),
                (.get, "/v1/oidc/nowhere/start", nil, false),
                (.get, "/", nil, false),
                (.get, "/no/such/path", nil, false),
            ]
            for (index, (method, path, body, asStudent)) in requests.enumerated() {
                var headers: HTTPFields = asStudent ? student.bearerHeader : [:]
                headers[.xForwardedFor] = "203.0.113.\(index + 1), 10.0.0.1"
                try await server.send(method, path, body: body, headers: headers)
            }
            let seen = rule.seen.withLockedValue { $0 }
            #expect(seen.map(\.path) == requests.map { String($0.1.prefix { $0 != "?" }) })
            #expect(seen.map(\.address) == requests.indices.map { "203.0.113.\($0 + 1)" })
        }
    }
}

/// The caller is looked up on first use and at most once per request, however many pieces ask
/// (the cross-site check of a write, then its handler), and never for a request without a session.
@Suite struct CallerLookupTests {
    /// Sessions that count how often an account is looked up.
    final class CountingSessions: SessionStore {
        let lookups = NIOLockedValueBox(0)
        let account: Account?

        init(account: Account?) { self.account = account }

        func insertSession(_ session: SessionRecord) async throws {}
        func session(tokenHash: String, now: Int64, in course: CourseID) async throws -> LiveSession? {
            lookups.withLockedValue { $0 += 1 }
            return account.map { LiveSession(account: $0, idleExpiresAt: now + 86_400_000_000) }
        }
        func extendSessionIdle(tokenHash: String, until: Int64) async throws {}
        func confirmSessionPassword(tokenHash: String, at: Int64) async throws {}
        func deleteSession(tokenHash: String) async throws {}
        func deleteExpiredSessions(now: Int64) async throws -> Int { 0 }
    }

    static let ada = Account(
        key: "1234567890", email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", passwordHash: "", isAdmin: false,
        createdAt: 0)

    static func request(authorization: String?) -> Request {
        var fields: HTTPFields = [:]
        if let authorization { fields[.authorization] = authorization }
        return Request(head: HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/v1/StudentLocation", headerFields: fields),
                       body: RequestBody(buffer: ByteBuffer()))
    }

    @Test func askedThreeTimesItIsLookedUpOnce() async throws {
        let sessions = CountingSessions(account: Self.ada)
        let facts = RequestFacts()
        facts.begin(clientAddress: "203.0.113.1", request: Self.request(authorization: "Bearer abc"),
                    authenticator: SessionAuthenticator(sessions: sessions, clock: .system))
        for _ in 0..<3 { #expect(try await facts.caller()?.account.key == Self.ada.key) }
        #expect(sessions.lookups.withLockedValue { $0 } == 1)
    }

    @Test func anUnknownSessionIsLookedUpOnceToo() async throws {
        let sessions = CountingSessions(account: nil)
        let facts = RequestFacts()
        facts.begin(clientAddress: "203.0.113.1", request: Self.request(authorization: "Bearer gone"),
                    authenticator: SessionAuthenticator(sessions: sessions, clock: .system))
        for _ in 0..<3 { #expect(try await facts.caller() == nil) }
        #expect(sessions.lookups.withLockedValue { $0 } == 1)
    }

    @Test func noSessionMeansNoLookup() async throws {
        let sessions = CountingSessions(account: Self.ada)
        let facts = RequestFacts()
        facts.begin(clientAddress: "203.0.113.1", request: Self.request(authorization: nil),
                    authenticator: SessionAuthenticator(sessions: sessions, clock: .system))
        #expect(try await facts.caller() == nil)
        #expect(sessions.lookups.withLockedValue { $0 } == 0)
    }
}
