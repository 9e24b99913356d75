import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// A write sent again with the same `Idempotency-Key` (nginx resending it to
/// another instance, a client retrying after a lost answer) is answered as the first time and done
/// once (docs/API.md, "Idempotency keys").
@Suite struct IdempotencyTests {
    static let key = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!
    static let pin = #"{"mapString": "Lima, Peru", "mediaURL": "https://example.com", "latitude": -12.05, "longitude": -77.04}"#

    static let unbounded = IdempotencyBounds(perCaller: .max, perAddress: .max)
    static let anyone = IdempotencyClaimant(caller: nil, address: "a")

    static func open(_ configuration: inout AppConfiguration) {
        configuration.writeMode = .open
    }

    @Test(arguments: ["/v1/StudentLocation", "/parse/classes/StudentLocation"])
    func aCreateSentTwiceIsDoneOnceAndAnsweredTheSame(path: String) async throws {
        try await TestServer.run(configure: Self.open) { server in
            let first = try await server.send(.post, path, body: Self.pin, headers: [Self.key: "create-1"])
            let again = try await server.send(.post, path, body: Self.pin, headers: [Self.key: "create-1"])
            #expect(first.status.code / 100 == 2, "\(first.text)")
            #expect(again.status == first.status)
            #expect(again.data == first.data)
            #expect(again.headers[.location] == first.headers[.location])
            #expect(first.headers[Self.replayed] == nil && again.headers[Self.replayed] == "true")
            #expect(try await server.snapshot().locations.count == 1)
            // Without a key, the same body is a second pin, as it always was.
            _ = try await server.send(.post, path, body: Self.pin)
            #expect(try await server.snapshot().locations.count == 2)
        }
    }

    @Test func aSignUpSentTwiceGetsTheSameSessionNotEmailTaken() async throws {
        try await TestServer.run { server in
            let body = #"{"email": "twice@example.com", "password": "correct horse", "firstName": "Twice", "lastName": "Sent"}"#
            let first = try await server.send(.post, "/v1/accounts", body: body, headers: [Self.key: "signup-1"])
            let again = try await server.send(.post, "/v1/accounts", body: body, headers: [Self.key: "signup-1"])
            #expect(first.status == .created && again.status == .created, "\(again.text)")
            #expect(again.data == first.data)
            #expect(again.setCookies == first.setCookies)
            #expect(try await server.store.allAccounts().count == 1)
            // The kept answer is sealed: the table does not hold the session it carries.
            let token = try JSONDecoder().decode(StrictLogin.self, from: first.data).session.id
            let kept = try await server.store.writer.run(SQLQueryString("SELECT key, answer FROM idempotency_keys"))
            #expect(kept.count == 1)
            for row in kept {
                #expect(try row.decode(column: "answer", as: String.self).contains(token) == false)
                #expect(try row.decode(column: "key", as: String.self).contains("signup-1") == false)
            }
            let unkeyed = try await server.send(.post, "/v1/accounts", body: body)
            #expect(unkeyed.status.code == 409)
        }
    }

    @Test func aKeySentWithADifferentRequestIs422InTheFamilysShape() async throws {
        try await TestServer.run(configure: Self.open) { server in
            _ = try await server.send(.post, "/v1/StudentLocation", body: Self.pin, headers: [Self.key: "k"])
            let other = try await server.send(.post, "/v1/StudentLocation", body: Self.pin.replacingOccurrences(of: "Lima", with: "Cusco"),
                                              headers: [Self.key: "k"])
            #expect(other.status.code == 422)
            #expect(try other.object()["code"] as? Int == ParseErrorCode.duplicateRequest)
            let parse = try await server.send(.post, "/parse/classes/StudentLocation", body: Self.pin, headers: [Self.key: "k"])
            let parseBody = try parse.object()
            #expect(parse.status.code == 422 && parseBody["status"] == nil)
            #expect(try await server.snapshot().locations.count == 1)
        }
    }

    @Test func keysBelongToTheirCaller() async throws {
        try await TestServer.run { server in
            let (ada, bob) = (try await server.signUp(), try await server.signUp())
            for student in [ada, bob] {
                let posted = try await server.send(.post, "/v1/StudentLocation", body: Self.pin,
                                                   headers: student.bearerHeader + [Self.key: "same-key"])
                #expect(posted.status == .ok && posted.headers[Self.replayed] == nil, "\(posted.text)")
            }
            #expect(try await server.snapshot().locations.count == 2)
        }
    }

    @Test func anAnswerThatChangedNothingIsNotKept() async throws {
        try await TestServer.run(configure: { Self.open(&$0); $0.openWritesPerMinute = 1 }) { server in
            #expect(try await server.send(.post, "/v1/StudentLocation", body: Self.pin, headers: [Self.key: "a"]).status == .ok)
            for _ in 0..<2 {
                let throttled = try await server.send(.post, "/v1/StudentLocation", body: Self.pin, headers: [Self.key: "b"])
                #expect(throttled.status == .tooManyRequests)
                #expect(throttled.headers[Self.replayed] == nil, "refused again, not replayed")
            }
        }
    }

    @Test func aKeyWhoseFirstRequestRunsStillIs409WithRetryAfter() async throws {
        try await TestServer.run(configure: Self.open) { server in
            var request = Request(head: HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/v1/StudentLocation",
                                                    headerFields: [Self.key: "slow"]),
                                  body: RequestBody(buffer: ByteBuffer(string: Self.pin)))
            let body = try await RequestJSON.bytes(collecting: &request)
            let (key, kind) = try #require(IdempotentRequest.key(of: request, family: .v1Locations))
            let keyed = try IdempotentRequest(request, key: key, kind: kind, body: body, clientAddress: "127.0.0.1", serverSecret: .perProcess)
            #expect(try await server.store.claimIdempotencyKey(
                keyed.lookup, fingerprint: keyed.fingerprint, by: keyed.claimant, bounds: Self.unbounded, now: WallClock.system.nowMillis()) == .claimed)
            let meanwhile = try await server.send(.post, "/v1/StudentLocation", body: Self.pin, headers: [Self.key: "slow"])
            #expect(meanwhile.status == .conflict)
            #expect(meanwhile.headers[.retryAfter] == "1")
            // A claim that was never answered (its server stopped) is not waited on for ever.
            try await server.store.writer.run(SQLQueryString("UPDATE idempotency_keys SET created_at = created_at - 120000"))
            let cutOff = try await server.send(.post, "/v1/StudentLocation", body: Self.pin, headers: [Self.key: "slow"])
            #expect(cutOff.status == .conflict && cutOff.headers[.retryAfter] == nil)
            #expect(try cutOff.object()["error"] as? String == APIError.idempotentRequestOutcomeUnknown.message)
            #expect(try await server.snapshot().locations.isEmpty)
        }
    }

    @Test(arguments: ["", String(repeating: "k", count: 256), "with space", "é"])
    func aMalformedKeyIs400(key: String) async throws {
        try await TestServer.run(configure: Self.open) { server in
            let response = try await server.send(.post, "/v1/StudentLocation", body: Self.pin, headers: [Self.key: key])
            #expect(response.status == .badRequest)
            #expect(try await server.snapshot().locations.isEmpty)
        }
    }

    @Test func keysOlderThanADayAreSwept() async throws {
        try await TestDatabase.withFresh { temporary in
            let store = try await temporary.open().store
            func claim(_ key: String, now: Int64) async throws -> IdempotencyClaim {
                try await store.claimIdempotencyKey(key, fingerprint: "f", by: Self.anyone, bounds: Self.unbounded, now: now)
            }
            #expect(try await claim("old", now: 1_000) == .claimed)
            #expect(try await claim("new", now: 1_000 + IdempotencyMiddleware.keptForMillis) == .claimed)
            #expect(try await store.deleteIdempotencyKeys(before: 1_001) == 1)
            #expect(try await claim("new", now: 0) == .inProgress(fingerprint: "f", since: 1_000 + IdempotencyMiddleware.keptForMillis))
        }
    }
}
