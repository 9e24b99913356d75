import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// What the idempotency table keeps is safe to leak (no plain hash of a request,
/// no password in any form a guess can be tested against) and bounded (nothing for refused or
/// anonymous requests, a bound per caller and per address, large answers as a digest).
@Suite struct IdempotencyRecordsTests {
    static let key = IdempotencyTests.key
    static let password = "correct horse"

    static func rows(_ server: TestServer) async throws -> [(fingerprint: String, answer: String?, caller: String?, address: String?)] {
        try await server.store.writer.run(SQLQueryString("SELECT fingerprint, answer, caller, address FROM idempotency_keys")).map {
            (try $0.decode(column: "fingerprint", as: String.self), try $0.decode(column: "answer", as: String?.self),
             try $0.decode(column: "caller", as: String?.self), try $0.decode(column: "address", as: String?.self))
        }
    }

    static func login(_ email: String, _ password: String) -> String {
        #"{"udacity": {"username": "\#(email)", "password": "\#(password)"}}"#
    }

    /// The fingerprint is a MAC under the server's secret: no hash of the request's parts, in any
    /// framing the old code or an attacker might try, gives it, and none of what is stored holds
    /// the password or the credential.
    @Test func theStoredFingerprintIsNoPlainHashOfTheRequest() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(password: Self.password)
            let body = Self.login(student.email, Self.password)
            #expect(try await server.send(.post, "/v1/session", body: body, headers: [Self.key: "login-1"]).status == .ok)
            let kept = try await Self.rows(server)
            try #require(kept.count == 1)
            let plain = ["POST /v1/session\n" + body, body, "POST /v1/session " + body, Self.password, "POST /v1/session\n"]
            let hashes = Set(plain.flatMap { text in
                [Identifiers.hex(SHA256.hash(data: Array(text.utf8))), Identifiers.hex(Insecure.SHA1.hash(data: Array(text.utf8))),
                 Identifiers.hex(SHA512.hash(data: Array(text.utf8)))]
            })
            #expect(!hashes.contains(kept[0].fingerprint))
            #expect(kept[0].fingerprint.count == 64)
            for stored in [kept[0].fingerprint, kept[0].answer ?? "", kept[0].caller ?? "", kept[0].address ?? ""] {
                #expect(!stored.contains(Self.password) && !stored.contains(student.email) && !stored.contains("127.0.0.1"))
            }
        }
    }

    /// The password is in neither the fingerprint nor the lookup: two requests that differ only in
    /// it have the same fingerprint. It seals the answer instead, so another password cannot open
    /// the kept login (and its session) under the same key.
    @Test func thePasswordSealsTheAnswerAndIsNotFingerprinted() async throws {
        func keyed(_ password: String, spacing: String = " ") throws -> IdempotentRequest {
            let body = #"{"udacity":{"password":"\#(password)",\#(spacing)"username":"ada@example.com"}}"#
            let request = Request(
                head: HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/v1/session", headerFields: [Self.key: "k"]),
                body: RequestBody(buffer: ByteBuffer(string: body)))
            return try IdempotentRequest(request, key: "k", kind: .idempotencyKey, body: ByteBuffer(string: body),
                                         clientAddress: "127.0.0.1", serverSecret: .perProcess)
        }
        let (right, wrong, respaced) = (try keyed("right one"), try keyed("wrong one"), try keyed("right one", spacing: "\n  "))
        #expect(right.fingerprint == wrong.fingerprint && right.lookup == wrong.lookup)
        #expect(right.fingerprint == respaced.fingerprint, "the same JSON sent with other spacing is the same request")
        let sealed = try KeptAnswer(status: 200, headers: [], body: Data("session".utf8)).sealed(with: right.secret)
        #expect(throws: (any Error).self) { try KeptAnswer.unsealed(sealed, with: wrong.secret) }
        #expect(try KeptAnswer.unsealed(sealed, with: respaced.secret).body == Data("session".utf8))
        let other = try IdempotentRequest(
            Request(head: HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/v1/session"), body: RequestBody(buffer: ByteBuffer())),
            key: "k", kind: .idempotencyKey, body: ByteBuffer(string: #"{"udacity":{"password":"right one","username":"bob@example.com"}}"#),
            clientAddress: "127.0.0.1", serverSecret: .perProcess)
        #expect(other.fingerprint != right.fingerprint)
    }

    @Test func aLoginSentAgainWithAnotherPasswordGetsNoSession() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(password: Self.password)
            let first = try await server.send(.post, "/v1/session", body: Self.login(student.email, Self.password), headers: [Self.key: "same"])
            #expect(first.status == .ok)
            let guessed = try await server.send(.post, "/v1/session", body: Self.login(student.email, "a wrong guess"), headers: [Self.key: "same"])
            #expect(guessed.status.code == 422, "\(guessed.text)")
            #expect(guessed.headers[.setCookie] == nil && !guessed.text.contains("session\""))
            let again = try await server.send(.post, "/v1/session", body: Self.login(student.email, Self.password), headers: [Self.key: "same"])
            #expect(again.status == .ok && again.headers[IdempotencyTests.replayed] == "true" && again.data == first.data)
        }
    }

    /// Anonymous 401s, 404s (an unknown path, or one echoing a 60,000-character id), refused
    /// logins and bad bodies leave no row: the key is free again.
    @Test func refusedAnswersAreNotKept() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(password: Self.password)
            let longID = String(repeating: "x", count: 60_000)
            let requests: [(HTTPRequest.Method, String, String, HTTPFields)] = [
                (.post, "/v1/StudentLocation", IdempotencyTests.pin, [:]),
                (.post, "/v1/nowhere", "{}", [:]),
                (.put, "/v1/StudentLocation/\(longID)", IdempotencyTests.pin, student.bearerHeader),
                (.post, "/v1/session", Self.login(student.email, "wrong"), [:]),
                (.post, "/v1/StudentLocation", "{not json", student.bearerHeader),
            ]
            for (index, (method, path, body, headers)) in requests.enumerated() {
                for _ in 0..<20 {
                    let answer = try await server.send(method, path, body: body, headers: headers + [Self.key: "refused-\(index)"])
                    #expect(answer.status.code / 100 == 4 && answer.status.code != 409, "\(path.prefix(40)): \(answer.status)")
                }
            }
            #expect(try await Self.rows(server).isEmpty)
            #expect(try await server.store.idempotencyKeyCount() == 0)
        }
    }

    /// Past its bound, a caller's (or an address's) new keys are refused with 429; the keys it
    /// holds still replay, and another caller at another address is not affected.
    @Test func keysAreBoundedPerCallerAndPerAddress() async throws {
        try await TestServer.run(configure: { $0.idempotencyBounds = IdempotencyBounds(perCaller: 2, perAddress: 3) }) { server in
            let (ada, bob, eve) = (try await server.signUp(), try await server.signUp(), try await server.signUp())
            func post(_ student: TestSession, _ key: String, from address: String) async throws -> HTTPResponse.Status {
                let headers = student.bearerHeader + [Self.key: key, .xForwardedFor: address]
                return try await server.send(.post, "/v1/StudentLocation", body: IdempotencyTests.pin, headers: headers).status
            }
            #expect(try await post(ada, "a1", from: "10.0.0.1") == .ok)
            #expect(try await post(ada, "a2", from: "10.0.0.1") == .ok)
            let third = try await server.send(.post, "/v1/StudentLocation", body: IdempotencyTests.pin,
                                              headers: ada.bearerHeader + [Self.key: "a3", .xForwardedFor: "10.0.0.1"])
            #expect(third.status == .tooManyRequests && third.headers[.retryAfter] != nil)
            #expect(try third.object()["error"] as? String == APIError.tooManyIdempotencyKeys.message)
            #expect(try await post(ada, "a1", from: "10.0.0.1") == .ok, "a key it holds still replays")
            #expect(try await post(bob, "b1", from: "10.0.0.1") == .ok)
            #expect(try await post(bob, "b2", from: "10.0.0.1") == .tooManyRequests, "the address holds three")
            // IPv6: one subscriber's /64 is one address.
            #expect(try await post(eve, "e1", from: "2001:db8:1:2::1") == .ok)
            #expect(try await post(eve, "e2", from: "2001:db8:1:2:ffff::9") == .ok)
            #expect(try await post(bob, "b3", from: "2001:db8:1:2::77") == .ok)
            #expect(try await post(bob, "b4", from: "2001:db8:1:2:abcd::1") == .tooManyRequests)
            #expect(try await post(bob, "b5", from: "2001:db8:1:3::1") == .tooManyRequests, "bob holds two")
            #expect(try await server.store.idempotencyKeyCount() == 6)
        }
    }

    @Test func aLargeAnswerIsKeptAsItsStatusAndDigest() throws {
        let body = ByteBuffer(string: String(repeating: "a", count: KeptAnswer.maxBodyBytes + 1))
        let response = Response(status: .created, headers: [.contentType: "text/plain", .location: "/there"], body: ResponseBody(byteBuffer: body))
        let kept = KeptAnswer(response, body: body)
        #expect(kept.body.isEmpty && kept.bodySHA256 == Identifiers.hex(SHA256.hash(data: Data(body.readableBytesView))))
        let sealed = try kept.sealed(with: SymmetricKey(size: .bits256))
        #expect(sealed.count < 1_000)
        let replayed = kept.response()
        #expect(replayed.status == .created && replayed.headers[.location] == "/there")
        #expect(replayed.headers[.contentType] == "application/json; charset=utf-8")
        let small = KeptAnswer(response, body: ByteBuffer(string: "small"))
        #expect(small.body == Data("small".utf8) && small.bodySHA256 == nil)
    }

    @Test(arguments: [
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"), ("2001:DB8:1:2::", "2001:db8:1:2::/64"), ("::ffff:192.0.2.7", "192.0.2.7"),
        ("fe80::1%eth0", "fe80:0:0:0::/64"), ("192.0.2.7", "192.0.2.7"), ("unknown", "unknown"),
    ])
    func addressesAreGroupedAsSubscribersHoldThem(address: String, group: String) {
        #expect(AddressGroup.of(address) == group)
    }

    /// Instances of one database must hold one secret: a second secret is refused with what to
    /// do, and `--adopt-secret` makes it the database's own, dropping the kept answers.
    @Test func aDatabaseServedWithAnotherSecretIsRefusedUntilAdopted() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let first = try #require(ServerSecret(text: String(repeating: "1", count: 32)))
            let second = try #require(ServerSecret(text: String(repeating: "2", count: 32)))
            #expect(try await store.recordServerSecretDigest(first.checkDigest, replacing: false, now: 1) == .recorded)
            #expect(try await store.recordServerSecretDigest(first.checkDigest, replacing: false, now: 2) == .recorded)
            #expect(try await store.claimIdempotencyKey("k", fingerprint: "f", by: IdempotencyTests.anyone, bounds: IdempotencyTests.unbounded, now: 3) == .claimed)
            var configuration = AppConfiguration()
            configuration.secret = second
            do {
                _ = try await buildApplication(configuration, database: database, logger: .quiet)
                Issue.record("a second secret was accepted")
            } catch let error as ConfigurationError {
                #expect(error.description.contains("--adopt-secret"))
            }
            configuration.adoptSecret = true
            _ = try await buildApplication(configuration, database: database, logger: .quiet)
            #expect(try await store.recordServerSecretDigest(second.checkDigest, replacing: false, now: 4) == .recorded)
            #expect(try await store.idempotencyKeyCount() == 0)
            #expect(ServerSecret(text: "too short") == nil)
            try await database.close()
        }
    }
}
