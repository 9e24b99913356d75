import Foundation
import JWTKit
import NIOCore
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapStore
import Testing

/// The LTI tool's signing keys (issue 43, "Tool registration"): made on first use and sealed under
/// the server's secret, published at /lti/jwks so that what the tool signs checks against them,
/// a rotation keeping the retired key published; the operator's registration of a platform and
/// its refusals.
@Suite struct LTIKeySetTests {
    struct Claims: JWTPayload {
        let sub: SubjectClaim
        func verify(using _: some JWTAlgorithm) throws {}
    }

    @Test func whatTheToolSignsChecksAgainstItsPublishedKeysAcrossARotation() async throws {
        try await TestServer.run { server in
            let keys = LTIToolKeys(store: server.store, secret: .perProcess, clock: .system)
            let answer = try await server.send(.get, "/lti/jwks")
            #expect(answer.status == .ok)
            #expect(answer.headers[.cacheControl] == "public, max-age=3600")
            let published = try #require(try answer.object()["keys"] as? [[String: Any]])
            #expect(published.count == 1)
            #expect(published.first?["kty"] as? String == "RSA" && published.first?["alg"] as? String == "RS256" && published.first?["use"] as? String == "sig")
            #expect(published.first?["d"] == nil, "nothing private")
            #expect(Set(published.first?.keys.map { $0 } ?? []) == ["kty", "alg", "use", "kid", "n", "e"])

            let signing = try #require(try await keys.keys().first)
            #expect(signing.signs && signing.kid == published.first?["kid"] as? String)
            let token = try await Self.sign(with: signing)
            #expect(try await Self.verified(token, against: answer.data).sub.value == "tool")

            // Rotated: the new key signs, the old one is still published, so its messages still check.
            let registration = LTIRegistration(store: server.store, secret: .perProcess)
            let newKid = try await registration.rotateToolKey()
            let rotated = try await server.send(.get, "/lti/jwks")
            #expect((try rotated.object()["keys"] as? [[String: Any]])?.compactMap { $0["kid"] as? String } == [newKid, signing.kid])
            #expect(try await Self.verified(token, against: rotated.data).sub.value == "tool")
            let newSigning = try #require(try await keys.keys().first)
            #expect(newSigning.kid == newKid && newSigning.signs)
            #expect(try await Self.verified(try await Self.sign(with: newSigning), against: rotated.data).sub.value == "tool")

            // A server with another secret cannot open them, and says why.
            let elsewhere = LTIToolKeys(store: server.store, secret: try #require(ServerSecret(text: String(repeating: "x", count: 40))), clock: .system)
            await #expect(throws: LTIToolKeys.KeyUnreadable.self) { try await elsewhere.keys() }
        }
    }

    @Test func aPlatformIsRegisteredWithItsValuesAndBadOnesAreRefused() async throws {
        try await TestServer.run { server in
            let registration = LTIRegistration(store: server.store, secret: .perProcess)
            let values = LTIRegistration.PlatformValues(
                name: "", issuer: "https://moodle.example.edu", clientID: "abc123", deploymentIDs: ["1", " 1 "],
                authorizationURL: "https://moodle.example.edu/mod/lti/auth.php", jwksURL: "https://moodle.example.edu/mod/lti/certs.php",
                tokenURL: "https://moodle.example.edu/mod/lti/token.php")
            let added = try await registration.add(values)
            #expect(added.name == "https://moodle.example.edu" && added.deploymentIDs == ["1"])
            var refused: [String] = []
            for change in [
                { (v: inout LTIRegistration.PlatformValues) in v.clientID = "other"; v.jwksURL = "http://moodle.example.edu/certs" },
                { (v: inout LTIRegistration.PlatformValues) in v.clientID = "other"; v.deploymentIDs = [] },
                { (v: inout LTIRegistration.PlatformValues) in v.clientID = "  " },
                { (_: inout LTIRegistration.PlatformValues) in },
            ] {
                var bad = values
                change(&bad)
                do { _ = try await registration.add(bad) } catch let invalid as LTIRegistration.Invalid { refused.append(invalid.description) }
            }
            #expect(refused == [
                "--jwks-url must be an https URL (http only to this machine): http://moodle.example.edu/certs",
                "give the platform's deployment id with --deployment (one or more)",
                "--client-id is empty or not text",
                "https://moodle.example.edu is registered with client id abc123 already",
            ])
            #expect(try await registration.platforms().count == 1)
            var local = values
            local.clientID = "dev"
            local.authorizationURL = "http://127.0.0.1:9000/auth"
            #expect(try await registration.add(local).id > added.id, "plain http to this machine, for a platform under test")
            #expect(LTIRegistration.toolValues(origin: "https://map.example.org").map(\.value) == [
                "https://map.example.org/lti/login", "https://map.example.org/lti/launch", "https://map.example.org/lti/launch",
                "https://map.example.org/lti/jwks", "https://map.example.org/lti/launch",
            ])
        }
    }

    static func sign(with key: LTIToolKeys.Key) async throws -> String {
        let signer = JWTKeyCollection()
        await signer.add(rsa: key.privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.kid))
        return try await signer.sign(Claims(sub: "tool"), kid: JWKIdentifier(string: key.kid))
    }

    static func verified(_ token: String, against keySet: Data) async throws -> Claims {
        try await ProviderKeys(jwks: ByteBuffer(data: keySet)).collection.verify(token, as: Claims.self)
    }
}
