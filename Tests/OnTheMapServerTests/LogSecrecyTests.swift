import Foundation
import NIOConcurrencyHelpers
import HTTPTypes
import HummingbirdTesting
@testable import OnTheMapServer
import Testing

/// No session id, password, cookie or `Authorization` value reaches the log, at
/// any level, whichever way a client sends it; nor a place a student typed.
@Suite struct LogSecrecyTests {
    @Test func noSecretIsWrittenToTheLog() async throws {
        let capture = LogCapture()
        let secrets = SecretsSeen()
        try await TestServer.run(logger: capture.logger(level: .trace)) { server in
            let password = "a secret password 42"
            let student = try await server.signUp(password: password)
            secrets.add(student.token, password, student.cookies["XSRF-TOKEN"] ?? "")
            let xsrf: HTTPFields = [.init("X-XSRF-TOKEN")!: student.cookies["XSRF-TOKEN"]!]
            // The legacy apps put their session id in the path.
            try await server.send(.get, "/v1/users/\(student.token)")
            try await server.send(.get, "/api/users/\(student.token)&")
            try await server.send(.get, "/v1/users/\(student.key)?session=\(student.token)")
            try await server.send(.get, "/v1/StudentLocation?where=%7B%22uniqueKey%22%3A%22\(student.token)%22%7D")
            try await server.send(.get, "/v1/me", headers: student.bearerHeader)
            try await server.send(.get, "/v1/me", headers: student.cookieHeader)
            try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "\#(student.email)", "password": "\#(password)"}}"#)
            try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "\#(student.email)", "password": "\#(password)x"}}"#)
            try await server.send(.delete, "/v1/session", headers: student.cookieHeader + xsrf)
            // A failure that is logged as an error, with the token beside it.
            try await server.send(.get, "/v1/users/\(student.token)/\(student.token)", headers: student.bearerHeader)
            // Where a student lives: asked of the geocoder, posted, searched for.
            let street = "1600 Pennsylvania Avenue NW"
            secrets.add(street, "Pennsylvania")
            try await server.send(.get, "/v1/geocode?q=1600%20Pennsylvania%20Avenue%20NW", headers: student.bearerHeader)
            try await server.send(.get, "/v1/geocode?limit=3&q=1600+Pennsylvania+Avenue+NW", headers: student.bearerHeader)
            try await server.postLocation(as: try await server.signUp(), mapString: street)
            try await server.send(.get, "/v1/StudentLocation?where=%7B%22mapString%22%3A%221600%20Pennsylvania%20Avenue%20NW%22%7D")
        }
        let log = capture.text
        #expect(log.contains("/v1/users/[redacted]"), "\(log)")
        #expect(log.contains("status=200"))
        for secret in secrets.all where !secret.isEmpty {
            #expect(!log.contains(secret), "the log holds a secret:\n\(log)")
        }
    }

    @Test(arguments: [
        ("/v1/users/3903878747", "/v1/users/[redacted]"),
        ("/api/users/abc?x=1", "/api/users/[redacted]?[redacted]"),
        ("/v1/StudentLocation?where=" + String(repeating: "ab", count: 32), "/v1/StudentLocation?where=[redacted]"),
        ("/v1/StudentLocation?limit=100&order=-updatedAt", "/v1/StudentLocation?limit=100&order=-updatedAt"),
        ("/users/abc", "/users/abc"),
        // A provider's sign-in brings its one-time code and the state back through the address.
        ("/v1/oidc/school/callback?code=4T4dJEBNtHGT&state=x1&iss=https%3A%2F%2Fid", "/v1/oidc/school/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fid"),
        ("/v1/oidc/school/callback?error=access_denied", "/v1/oidc/school/callback?error=access_denied"),
        ("/v1/geocode?q=12%20Rue%20de%20Rivoli%2C%20Paris&limit=5", "/v1/geocode?q=[redacted]&limit=5"),
        ("/v1/StudentLocation?where=%7B%22mapString%22%3A%22Oslo%22%7D&limit=3", "/v1/StudentLocation?where=[redacted]&limit=3"),
    ])
    func redaction(uri: String, logged: String) {
        #expect(LogRedaction.uri(uri) == logged)
    }
}

/// Secrets found inside the server closure, read after it.
final class SecretsSeen: Sendable {
    private let box = NIOLockedValueBox<[String]>([])
    func add(_ values: String...) { box.withLockedValue { $0.append(contentsOf: values) } }
    var all: [String] { box.withLockedValue { $0 } }
}
