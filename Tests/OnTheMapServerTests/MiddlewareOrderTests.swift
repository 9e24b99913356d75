import Foundation
import HTTPTypes
import HummingbirdTesting
import OnTheMapStore
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// The router's global middleware runs in the order `buildRouter` adds it: the request's facts
/// (address, caller), the finish every answer gets, the method check, compression, errors in the
/// family's shape, idempotency. Each case shows an order an answer depends on.
@Suite struct MiddlewareOrderTests {
    static let key = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let pin = #"{"mapString": "Lima, Peru", "mediaURL": "https://example.com", "latitude": -12.05, "longitude": -77.04}"#

    /// The method check answers before any route, yet inside the finish: its 405 has the security
    /// headers and `Server`, and the family's shape.
    @Test func theMethodChecksAnswerIsFinishedLikeAnyOther() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.trace, "/parse/classes/StudentLocation")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
            #expect(response.headers[.server] != nil)
            #expect(try response.object()["code"] != nil && response.object()["status"] == nil, "Parse's shape: \(response.text)")
        }
    }

    /// Idempotency sits inside the error middleware: a key it refuses is an error in the family's
    /// shape, with the Udacity prefix on a Udacity path, and finished with the security headers.
    @Test func anIdempotencyRefusalIsInTheFamilysShape() async throws {
        try await TestServer.run { server in
            let bad: HTTPFields = [Self.key: String(repeating: "k", count: 256)]
            let session = try await server.send(.post, "/v1/session", body: "{}", headers: bad)
            #expect(session.status == .badRequest)
            let udacity = try JSONSerialization.jsonObject(with: session.unprefixed()) as? [String: Any]
            #expect(udacity?["status"] as? Int == 400 && udacity?["code"] == nil, "Udacity's shape: \(session.text)")
            #expect(session.headers[.xContentTypeOptions] == "nosniff")
            let parse = try await server.send(.post, "/parse/classes/StudentLocation", body: Self.pin, headers: bad)
            #expect(parse.status == .badRequest)
            #expect(try parse.object()["code"] as? Int == 107 && parse.object()["status"] == nil, "Parse's shape: \(parse.text)")
        }
    }

    /// The request's facts come first: the keys an address may hold open are counted by the
    /// client's address as the proxy rule found it, and a replay is finished like a first answer.
    @Test func keysAreCountedByTheAddressTheFactsFoundAndReplaysAreFinished() async throws {
        let configure: @Sendable (inout AppConfiguration) -> Void = {
            $0.writeMode = .open
            $0.idempotencyBounds = IdempotencyBounds(perCaller: .max, perAddress: 1)
        }
        try await TestServer.run(configure: configure) { server in
            func post(key: String, from address: String) async throws -> TestResponse {
                try await server.send(.post, "/v1/StudentLocation", body: Self.pin, headers: [Self.key: key, Self.forwardedFor: address])
            }
            let first = try await post(key: "k-1", from: "203.0.113.7")
            let again = try await post(key: "k-1", from: "203.0.113.7")
            #expect(first.status == .ok && again.headers[Self.replayed] == "true", "\(again.text)")
            #expect(again.headers[.xContentTypeOptions] == "nosniff" && again.headers[.server] != nil)
            #expect(try await post(key: "k-2", from: "203.0.113.7").status == .tooManyRequests)
            #expect(try await post(key: "k-3", from: "198.51.100.9").status == .ok)
        }
    }
}
