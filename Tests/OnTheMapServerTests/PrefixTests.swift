import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapModel
import Testing

/// docs/API.md, "Path families and error shapes": the five bytes `)]}'\n` on every Udacity
/// response, and nowhere else.
@Suite struct PrefixTests {
    @Test(arguments: [
        ("POST", "/v1/session", #"{"udacity": {"username": "ada@example.com", "password": "correct horse"}}"#, 200),
        ("POST", "/api/session", #"{"udacity": {"username": "ada@example.com", "password": "correct horse"}}"#, 200),
        ("POST", "/v1/session", "{broken", 400),
        ("POST", "/v1/session", #"{"udacity": {"username": "ada@example.com", "password": "wrong"}}"#, 403),
        ("GET", "/v1/session", "", 405),
        ("PUT", "/api/session", "", 405),
        ("DELETE", "/v1/session", "", 200),
        ("DELETE", "/api/session", "", 200),
        ("GET", "/v1/users/0000000000", "", 404),
        ("GET", "/api/users/0000000000", "", 404),
        ("GET", "/v1/users/", "", 404),
        ("GET", "/api/users", "", 404),
        ("POST", "/v1/users/123", "{}", 405),
        ("GET", "/v1/users/123/extra", "", 404),
        ("POST", "/v1/session", String(repeating: "x", count: 70_000), 413),
    ])
    func everyUdacityResponseStartsWithThePrefix(method: String, path: String, body: String, status: Int) async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            let response = try await server.send(.init(method)!, path, body: body.isEmpty ? nil : body)
            #expect(response.status.code == status)
            let json = try response.unprefixed()
            let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
            #expect(object != nil)
            if status >= 400 { #expect(object?["status"] as? Int == status) }
        }
    }

    @Test func throttledLoginIsPrefixedWithRetryAfter() async throws {
        try await TestServer.run(configure: { $0.loginThrottleLimit = 2 }) { server in
            let body = #"{"udacity": {"username": "ada@example.com", "password": "wrong"}}"#
            for _ in 0..<2 { try await server.send(.post, "/v1/session", body: body) }
            let response = try await server.send(.post, "/v1/session", body: body)
            #expect(response.status == .tooManyRequests)
            #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1)
            let error = try JSONDecoder().decode(UdacityError.self, from: try response.unprefixed())
            #expect(error.status == 429)
        }
    }

    @Test func userDataIsPrefixed() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            for path in ["/v1/users/\(student.key)", "/api/users/\(student.key)"] {
                let response = try await server.send(.get, path)
                #expect(response.status == .ok)
                _ = try response.unprefixed()
            }
        }
    }

    @Test(arguments: [
        ("GET", "/v1/StudentLocation"),
        ("GET", "/parse/classes/StudentLocation"),
        ("GET", "/1/classes/StudentLocation"),
        ("GET", "/v1/StudentLocation/nothing"),
        ("GET", "/parse/classes/StudentLocation?where=%7Bbad"),
        ("POST", "/v1/StudentLocation"),
        ("PUT", "/1/classes/StudentLocation"),
        ("POST", "/v1/accounts"),
        ("GET", "/v1/me"),
        ("GET", "/healthz"),
        ("GET", "/readyz"),
        ("GET", "/no/such/path"),
    ])
    func nothingElseIsPrefixed(method: String, path: String) async throws {
        try await TestServer.run { server in
            let response = try await server.send(.init(method)!, path)
            #expect(response.bytes.first == UInt8(ascii: "{"))
            _ = try response.object()
        }
    }

    @Test func udacityResponsesAreNeverShorterThanThePrefix() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.head, "/v1/session")
            // HEAD has no body by definition; every method with a body must carry at least the prefix.
            #expect(response.status == .methodNotAllowed)
            for method: HTTPRequest.Method in [.get, .post, .put, .delete, .patch, .options] {
                let answer = try await server.send(method, "/v1/session")
                #expect(answer.bytes.count > 5)
            }
        }
    }
}
