import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import Testing

/// docs/API.md, "Session": login and logout.
@Suite struct SessionTests {
    @Test func loginAnswersAccountAndSessionWithMicrosecondExpiration() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(email: "ada@example.com")
            let response = try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "ada@example.com", "password": "correct horse"}}"#)
            #expect(response.status == .ok)
            let login = try JSONDecoder().decode(StrictLogin.self, from: try response.unprefixed())
            #expect(login.account.registered)
            #expect(login.account.key == student.key)
            #expect(login.account.key.count >= 8 && login.account.key.count <= 11 && login.account.key.allSatisfy(\.isNumber))
            #expect(login.session.id.count >= 32)
            #expect(login.session.expiration.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/) != nil)
        }
    }

    @Test func loginExpirationIsThirtyDaysAhead() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            let response = try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "ada@example.com", "password": "correct horse"}}"#)
            let login = try JSONDecoder().decode(StrictLogin.self, from: try response.unprefixed())
            let expires = try #require(WireTime.parseMillis(login.session.expiration))
            let expected = WallClock.system.nowMillis() + 30 * 86_400_000
            #expect(abs(expires - expected) < 60_000)
        }
    }

    @Test func loginSetsSessionAndXSRFCookies() async throws {
        try await TestServer.run(configure: { $0.publicURL = PublicURL("https://map.example.org") }) { server in
            _ = try await server.signUp(email: "ada@example.com")
            let response = try await server.send(.post, "/api/session", body: #"{"udacity": {"username": "ada@example.com", "password": "correct horse"}}"#)
            let session = try #require(response.setCookieLine("__Host-otm_session"))
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Lax") && session.contains("Path=/") && session.contains("Secure"))
            let xsrf = try #require(response.setCookieLine("XSRF-TOKEN"))
            #expect(!xsrf.contains("HttpOnly") && xsrf.contains("Path=/") && !xsrf.contains("Domain"))
            #expect((response.setCookies["XSRF-TOKEN"] ?? "").count >= 32)
        }
    }

    @Test func cookiesAreNotSecureWithoutHTTPSPublicURL() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.post, "/v1/accounts", body: #"{"email": "a@b.co", "password": "correct horse", "firstName": "A", "lastName": "B"}"#)
            #expect(response.setCookieLine("otm_session")?.contains("Secure") == false)
        }
    }

    @Test func sessionIsStoredOnlyAsHash() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let rows = try await server.store.reader.raw("SELECT token_hash FROM sessions").all()
            let hashes = try rows.map { try $0.decode(column: "token_hash", as: String.self) }
            #expect(!hashes.isEmpty)
            #expect(!hashes.contains(student.token))
        }
    }

    @Test func unknownEmailAndWrongPasswordGetTheSameAnswer() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            let wrong = try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "ada@example.com", "password": "nope"}}"#)
            let unknown = try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "nobody@example.com", "password": "nope"}}"#)
            #expect(wrong.status == .forbidden)
            #expect(unknown.status == .forbidden)
            #expect(wrong.bytes == unknown.bytes)
            let error = try JSONDecoder().decode(UdacityError.self, from: try wrong.unprefixed())
            #expect(error.status == 403)
            #expect(error.error == "Account not found or invalid credentials.")
        }
    }

    @Test func unknownEmailCostsTheSameBcryptWorkAsWrongPassword() async throws {
        let hasher = CountingHasher()
        try await TestServer.run(hasher: hasher) { server in
            _ = try await server.signUp(email: "ada@example.com")
            let before = await hasher.verifications
            try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "ada@example.com", "password": "nope"}}"#)
            let afterWrong = await hasher.verifications
            try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "nobody@example.com", "password": "nope"}}"#)
            let afterUnknown = await hasher.verifications
            #expect(afterWrong - before == 1)
            #expect(afterUnknown - afterWrong == 1)
        }
    }

    /// Start-up computes no hash; the decoy is made once, when first needed.
    @Test func theDecoyHashIsMadeOnFirstUseNotAtStart() async throws {
        let hasher = CountingHasher()
        try await TestServer.run(hasher: hasher) { server in
            #expect(await hasher.hashes == 0)
            for _ in 0..<3 {
                try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "nobody@example.com", "password": "nope"}}"#)
            }
            #expect(await hasher.hashes == 1)
            #expect(await hasher.verifications == 3)
        }
    }

    @Test func emailIsCaseInsensitive() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "Ada@Example.com")
            let response = try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "ADA@example.COM", "password": "correct horse"}}"#)
            #expect(response.status == .ok)
        }
    }

    @Test func loginWithoutContentTypeOrAcceptWorks() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            let response = try await server.send(.post, "/v1/session", body: #"{"udacity":{"username":"ada@example.com","password":"correct horse"}}"#,
                                                 headers: [.accept: "application/json", .contentType: "application/json"])
            #expect(response.status == .ok)
        }
    }

    @Test(arguments: [
        #"{"udacity": {"username": "ada@example.com", "password": "a"b"}}"#,
        "not json at all",
        "",
        "[]",
        "{}",
        #"{"udacity": {"username": "a", "password": "b"}, "facebook_mobile": {"access_token": "x"}}"#,
        #"{"udacity": "ada"}"#,
    ])
    func badCredentialBodiesAre400(body: String) async throws {
        try await TestServer.run { server in
            let response = try await server.send(.post, "/v1/session", body: body)
            #expect(response.status == .badRequest)
            let error = try JSONDecoder().decode(UdacityError.self, from: try response.unprefixed())
            #expect(error.status == 400)
            #expect(error.error == "Did not specify exactly one credential.")
        }
    }

    @Test(arguments: [
        (#"{"udacity": {"password": "x"}}"#, "udacity.username"),
        (#"{"udacity": {"username": "", "password": "x"}}"#, "udacity.username"),
        (#"{"udacity": {"username": "a@b.co"}}"#, "udacity.password"),
        (#"{"udacity": {"username": "a@b.co", "password": 12}}"#, "udacity.password"),
    ])
    func missingUsernameOrPasswordNamesTheParameter(body: String, parameter: String) async throws {
        try await TestServer.run { server in
            let response = try await server.send(.post, "/v1/session", body: body)
            #expect(response.status == .badRequest)
            let object = try JSONSerialization.jsonObject(with: try response.unprefixed()) as? [String: Any]
            #expect(object?["status"] as? Int == 400)
            #expect(object?["parameter"] as? String == parameter)
        }
    }

    @Test func facebookCredentialIsRefusedAsUnknownAccount() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.post, "/v1/session", body: #"{"facebook_mobile": {"access_token": "abc"}}"#)
            #expect(response.status == .forbidden)
            _ = try response.unprefixed()
        }
    }

    @Test func logoutAnswersExactlyOneSessionObjectAndClearsCookies() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            var headers = student.cookieHeader
            headers[.init("X-XSRF-TOKEN")!] = student.cookies["XSRF-TOKEN"]
            let response = try await server.send(.delete, "/v1/session", headers: headers)
            #expect(response.status == .ok)
            let decoded = try JSONDecoder().decode([String: StrictLogoutSession].self, from: try response.unprefixed())
            #expect(Array(decoded.keys) == ["session"])
            #expect(response.setCookieLine("otm_session")?.contains("Max-Age=0") == true)
            #expect(response.setCookieLine("XSRF-TOKEN")?.contains("Max-Age=0") == true)
        }
    }

    @Test func logoutEndsTheSession() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            try await server.send(.delete, "/v1/session", headers: student.cookieHeader)
            let me = try await server.send(.get, "/v1/me", headers: student.cookieHeader)
            #expect(me.status == .unauthorized)
            let write = try await server.send(.post, "/v1/StudentLocation", body: #"{"mapString": "x", "mediaURL": "https://a.b", "latitude": 1, "longitude": 2}"#,
                                              headers: student.bearerHeader)
            #expect(write.status == .unauthorized)
        }
    }

    @Test(arguments: ["X-XSRF-TOKEN", "X-XSRF-Token", "X-XSFR-TOKEN", "XSRF-TOKEN", "X-Nothing"])
    func logoutAcceptsEveryXSRFHeaderSpellingAndABody(header: String) async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            var headers = student.cookieHeader
            headers[.init(header)!] = student.cookies["XSRF-TOKEN"]
            let response = try await server.send(.delete, "/api/session", body: #"{"udacity": {}}"#, headers: headers)
            #expect(response.status == .ok)
            _ = try JSONDecoder().decode([String: StrictLogoutSession].self, from: try response.unprefixed())
        }
    }

    @Test func logoutWithoutSessionIsStill200WithTheSameShape() async throws {
        try await TestServer.run { server in
            for _ in 0..<2 {
                let response = try await server.send(.delete, "/v1/session")
                #expect(response.status == .ok)
                let decoded = try JSONDecoder().decode([String: StrictLogoutSession].self, from: try response.unprefixed())
                #expect(Array(decoded.keys) == ["session"])
            }
        }
    }

    @Test func bearerTokenLogsOut() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            try await server.send(.delete, "/v1/session", headers: student.bearerHeader)
            #expect(try await server.send(.get, "/v1/me", headers: student.bearerHeader).status == .unauthorized)
        }
    }
}

/// Counts bcrypt hashes and verifications without doing them.
actor CountingHasher: PasswordHasher {
    private(set) var verifications = 0
    private(set) var hashes = 0

    func hash(_ password: String) async throws -> String {
        hashes += 1
        return "hashed:" + password
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        verifications += 1
        return hash == "hashed:" + password
    }
}

/// A login also ends when unused for `sessionIdleSeconds`; using it moves that
/// bound on (written at most once an hour), within the absolute lifetime.
@Suite struct SessionIdleTests {
    @Test func anUnusedLoginEndsAndAUsedOneLives() async throws {
        let time = ClockTests.MovableClock()
        try await TestServer.run(configure: { $0.sessionIdleSeconds = 2 * 86_400 }, clock: time.clock) { server in
            let (used, unused) = (try await server.signUp(), try await server.signUp())
            for _ in 0..<3 {
                time.advance(days: 1)
                #expect(try await server.send(.get, "/v1/me", headers: used.bearerHeader).status == .ok)
            }
            #expect(try await server.send(.get, "/v1/me", headers: unused.bearerHeader).status == .unauthorized, "3 days unused")
            time.advance(days: 3)
            #expect(try await server.send(.get, "/v1/me", headers: used.bearerHeader).status == .unauthorized, "3 days unused")
        }
    }
}
