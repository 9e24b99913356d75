import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// docs/API.md, "Native endpoints" (sign-up, me, health) and the generic rules of "Path families
/// and error shapes".
@Suite struct NativeTests {
    @Test func signUpAnswersLikeALoginAndLogsIn() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.post, "/v1/accounts", body: #"{"email": " New@Example.com ", "password": "analytical engine", "firstName": " Ada ", "lastName": "Lovelace"}"#)
            #expect(response.status == .created)
            #expect(response.bytes.first == UInt8(ascii: "{"))
            let login = try JSONDecoder().decode(StrictLogin.self, from: response.data)
            #expect(login.account.registered)
            #expect(response.setCookies["otm_session"] == login.session.id)
            #expect(response.setCookies["XSRF-TOKEN"] != nil)
            let me = try await server.send(.get, "/v1/me", headers: [.authorization: "Bearer \(login.session.id)"])
            let account = try #require(try me.object()["account"] as? [String: Any])
            #expect(account["email"] as? String == "new@example.com")
            #expect(account["firstName"] as? String == "Ada")
        }
    }

    @Test func duplicateEmailIs409() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            let response = try await server.send(.post, "/v1/accounts", body: #"{"email": "ADA@example.com", "password": "analytical engine", "firstName": "A", "lastName": "B"}"#)
            #expect(response.status == .conflict)
            #expect(try response.object()["status"] as? Int == 409)
        }
    }

    @Test(arguments: [(7, 400), (8, 201), (128, 201), (129, 400)])
    func passwordLength(length: Int, status: Int) async throws {
        try await TestServer.run { server in
            // Not one character repeated: that is refused whatever its length (PasswordRules).
            let password = String((0..<length).map { Array("p7#kq2!m")[$0 % 8] })
            let response = try await server.send(.post, "/v1/accounts", body: #"{"email": "a@b.co", "password": "\#(password)", "firstName": "A", "lastName": "B"}"#)
            #expect(response.status.code == status)
        }
    }

    @Test func meShowsAccountAndOwnLocationOrNull() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let empty = try await server.send(.get, "/v1/me", headers: student.cookieHeader)
            #expect(empty.status == .ok)
            #expect(empty.text.contains(#""location":null"#))
            let id = try await server.postLocation(as: student)
            let me = try await server.send(.get, "/v1/me", headers: student.cookieHeader)
            let location = try #require(try me.object()["location"] as? [String: Any])
            #expect(location["objectId"] as? String == id)
        }
    }

    @Test func meWithoutSessionIs401() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.get, "/v1/me")
            #expect(response.status == .unauthorized)
            #expect(try response.object()["status"] as? Int == 401)
        }
    }

    @Test func readinessWaitsForTheGeocoder() async throws {
        try await TestServer.run { server in
            let loading = try await server.send(.get, "/readyz")
            #expect(loading.status == .serviceUnavailable)
            #expect(loading.headers[.retryAfter] == "1")
            #expect(try await server.send(.get, "/healthz").status == .ok)
        }
    }

    @Test func healthAndReadiness() async throws {
        try await TestServer.run(geocoder: TestServer.loadedGeocoder) { server in
            let health = try await server.send(.get, "/healthz").object()
            let ready = try await server.send(.get, "/readyz").object()
            #expect(health["status"] as? String == "ok")
            #expect(ready["status"] as? String == "ready")
        }
    }

    @Test func readinessFailsWhenTheDatabaseIsGone() async throws {
        try await TestServer.run(geocoder: TestServer.loadedGeocoder) { server in
            try await server.database.close()
            let response = try await server.send(.get, "/readyz")
            #expect(response.status == .serviceUnavailable)
            #expect(try response.object()["status"] as? Int == 503)
            #expect(try await server.send(.get, "/healthz").status == .ok)
        }
    }

    @Test func unknownRouteIs404JSONAndWrongMethodIs405WithAllow() async throws {
        try await TestServer.run { server in
            let missing = try await server.send(.get, "/nothing/here")
            #expect(missing.status == .notFound)
            #expect(try missing.object()["status"] as? Int == 404)
            let wrong = try await server.send(.delete, "/v1/accounts")
            #expect(wrong.status == .methodNotAllowed)
            #expect(wrong.headers[.allow] == "POST")
            let item = try await server.send(.post, "/v1/StudentLocation/abc")
            #expect(item.headers[.allow] == "GET, HEAD, PUT, DELETE")
        }
    }

    @Test func headOfTheListHasNoBody() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.head, "/v1/StudentLocation")
            #expect(response.status == .ok)
            #expect(response.bytes.isEmpty)
        }
    }

    @Test func securityHeadersOnEveryResponse() async throws {
        try await TestServer.run { server in
            for path in ["/v1/StudentLocation", "/v1/session", "/nothing"] {
                let response = try await server.send(.get, path)
                #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
            }
        }
    }
}
