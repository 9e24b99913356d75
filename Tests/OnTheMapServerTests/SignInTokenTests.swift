import Foundation
import JWTKit
import NIOCore
@testable import OnTheMapServer
import Testing

/// Sign-in with a provider: what makes an ID token acceptable (OpenID Connect Core
/// 3.1.3.7), checked with tokens signed here. The whole flow against a real provider runs in
/// `scripts/test/oidc-test.sh`.
@Suite struct SignInTokenTests {
    static let issuer = "https://id.example.edu"
    static let clientID = "onthemap"
    static let nonce = "nonce-1"

    /// The provider's signing key, and the key set it publishes: its public half, beside an
    /// encryption key and a kind of key this server does not know, which must not spoil the set.
    struct Provider {
        let signer = JWTKeyCollection()
        let published: ProviderKeys

        init() async throws {
            let key = ES256PrivateKey()
            await signer.add(ecdsa: key, kid: "k1")
            let (x, y) = try #require(key.publicKey.parameters)
            let jwks = """
                {"keys": [
                  {"kty": "RSA", "use": "enc", "alg": "RSA-OAEP", "kid": "enc-1", "n": "AQAB", "e": "AQAB"},
                  {"kty": "XYZ", "kid": "odd"},
                  {"kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": "k1", "x": "\(x)", "y": "\(y)"}
                ]}
                """
            published = try await ProviderKeys(jwks: ByteBuffer(string: jwks))
        }

        func token(_ change: (inout IDToken) -> Void = { _ in }, kid: String = "k1") async throws -> String {
            var claims = SignInTokenTests.claims()
            change(&claims)
            return try await signer.sign(claims, kid: JWKIdentifier(string: kid))
        }

        func verify(_ token: String, nonce: String = SignInTokenTests.nonce) async throws -> IDToken {
            try await ProviderClient.verifiedClaims(of: token, keys: published, issuer: SignInTokenTests.issuer,
                                                    clientID: SignInTokenTests.clientID, nonce: nonce, now: Date())
        }
    }

    static func claims(now: Date = Date()) -> IDToken {
        IDToken(
            issuer: IssuerClaim(value: issuer), subject: SubjectClaim(value: "248289761001"), audience: AudienceClaim(value: [clientID]),
            expires: ExpirationClaim(value: now.addingTimeInterval(300)), issuedAt: IssuedAtClaim(value: now),
            authorizedPresenter: nil, nonce: nonce, email: "jane@example.edu", emailVerified: true, name: "Jane Doe",
            givenName: "Jane", familyName: "Doe")
    }

    /// Refused as a token that fails a check, not as a provider that is down.
    func expectRefused(_ provider: Provider, _ token: String, nonce: String = SignInTokenTests.nonce, _ comment: Comment) async {
        do {
            _ = try await provider.verify(token, nonce: nonce)
            Issue.record("accepted: \(comment)")
        } catch let failure as SignInFailure {
            #expect(failure.code == "invalid-token", comment)
        } catch {
            Issue.record("\(comment): \(error)")
        }
    }

    @Test func aGoodTokenGivesItsClaims() async throws {
        let provider = try await Provider()
        let claims = try await provider.verify(try await provider.token())
        #expect(claims.subject.value == "248289761001")
        #expect(claims.email == "jane@example.edu")
        #expect(claims.emailVerified?.value == true)
    }

    @Test func aTokenWithAChangedClaimIsRefused() async throws {
        let provider = try await Provider()
        let parts = try await provider.token().split(separator: ".").map(String.init)
        // The payload re-encoded with another email, the provider's signature kept.
        var payload = try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[1]))) as! [String: Any]
        payload["email"] = "mallory@example.edu"
        let tampered = [parts[0], Base64URL.encode(try JSONSerialization.data(withJSONObject: payload)), parts[2]].joined(separator: ".")
        await expectRefused(provider, tampered, "a changed payload")
        // One character of the signature changed.
        var signature = Array(parts[2])
        signature[10] = signature[10] == "A" ? "B" : "A"
        await expectRefused(provider, [parts[0], parts[1], String(signature)].joined(separator: "."), "a changed signature")
    }

    @Test func aTokenSignedByAnotherKeyOrWithNoneOrTheSecretIsRefused() async throws {
        let provider = try await Provider()
        // Another key under the published key's id.
        let impostor = JWTKeyCollection()
        await impostor.add(ecdsa: ES256PrivateKey(), kid: "k1")
        await expectRefused(provider, try await impostor.sign(Self.claims(), kid: "k1"), "another key, same kid")
        // alg none, and HS256 with the client's id as the secret: no such key is ever published.
        let unsigned = JWTKeyCollection()
        await unsigned.addUnsecuredNone(kid: "k1")
        await expectRefused(provider, try await unsigned.sign(Self.claims(), kid: "k1"), "alg none")
        let symmetric = JWTKeyCollection()
        await symmetric.add(hmac: HMACKey(from: "the client's secret, 32 bytes or more"), digestAlgorithm: .sha256, kid: "k1")
        await expectRefused(provider, try await symmetric.sign(Self.claims(), kid: "k1"), "HS256")
    }

    @Test func aTokenForAnotherLoginClientOrIssuerIsRefused() async throws {
        let provider = try await Provider()
        await expectRefused(provider, try await provider.token(), nonce: "another login's nonce", "a wrong nonce")
        await expectRefused(provider, try await provider.token { $0 = $0.with(nonce: .some(nil)) }, "no nonce")
        await expectRefused(provider, try await provider.token { $0 = $0.with(audience: ["another-app"]) }, "another audience")
        await expectRefused(provider, try await provider.token { $0 = $0.with(audience: [Self.clientID, "another-app"]) }, "an extra untrusted audience")
        await expectRefused(provider, try await provider.token { $0 = $0.with(authorizedPresenter: "another-app") }, "azp of another client")
        await expectRefused(provider, try await provider.token { $0 = $0.with(issuer: "https://evil.example.com") }, "another issuer")
    }

    @Test func aTokenWithoutAUsableSubjectIsRefused() async throws {
        let provider = try await Provider()
        await expectRefused(provider, try await provider.token { $0 = $0.with(subject: "") }, "an empty sub")
        await expectRefused(provider, try await provider.token { $0 = $0.with(subject: String(repeating: "s", count: 256)) }, "a sub over 255 bytes")
        _ = try await provider.verify(try await provider.token { $0 = $0.with(subject: String(repeating: "s", count: 255)) })
    }

    @Test func anExpiredTokenIsRefusedWithinTheClockSkew() async throws {
        let provider = try await Provider()
        let now = Date()
        await expectRefused(provider, try await provider.token { $0 = $0.with(expires: now.addingTimeInterval(-IDToken.clockSkew - 5)) }, "expired")
        await expectRefused(provider, try await provider.token { $0 = $0.with(issuedAt: now.addingTimeInterval(IDToken.clockSkew + 60)) }, "issued later")
        // A provider's clock a little ahead or behind is fine.
        _ = try await provider.verify(try await provider.token { $0 = $0.with(expires: now.addingTimeInterval(-10)) })
    }

    /// A key id the set does not hold is told apart from a bad signature: the provider may have a
    /// new key, and its set is fetched again.
    @Test func aKeyTheSetLacksIsToldApart() async throws {
        let provider = try await Provider()
        let rotated = JWTKeyCollection()
        await rotated.add(ecdsa: ES256PrivateKey(), kid: "k2")
        await #expect(throws: ProviderKeys.NotPublished.self) { try await provider.verify(try await rotated.sign(Self.claims(), kid: "k2")) }
        #expect(provider.published.ids == ["k1"], "the encryption key and the unknown kind are left out")
    }

    /// RFC 7636, appendix B.
    @Test func theCodeChallengeIsTheRFCsS256() {
        #expect(ProviderClient.codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func namesComeFromTheClaimsOrTheEmail() {
        func names(given: String?, family: String?, name: String?, email: String = "j.doe@example.edu") -> (String, String) {
            let claims = Self.claims()
            let token = IDToken(issuer: claims.issuer, subject: claims.subject, audience: claims.audience, expires: claims.expires,
                                issuedAt: claims.issuedAt, authorizedPresenter: nil, nonce: Self.nonce, email: email, emailVerified: true,
                                name: name, givenName: given, familyName: family)
            let found = SignInService.names(from: token, email: email)
            return (found.first, found.last)
        }
        #expect(names(given: "Jane", family: "Doe", name: "Jane Doe") == ("Jane", "Doe"))
        #expect(names(given: nil, family: nil, name: "Mary Ann Smith") == ("Mary Ann", "Smith"))
        #expect(names(given: nil, family: nil, name: "Prince") == ("Prince", ""))
        #expect(names(given: " ", family: nil, name: nil) == ("j.doe", ""))
        let cleaned = names(given: "Ja\u{0}ne\u{202E}", family: String(repeating: "x", count: 300), name: nil)
        #expect(cleaned.0 == "Jane")
        #expect(cleaned.1.count == 100)
    }
}

extension IDToken {
    /// A copy with some claims replaced (`.some(nil)` removes an optional one).
    func with(
        issuer: String? = nil, subject: String? = nil, audience: [String]? = nil, expires: Date? = nil, issuedAt: Date? = nil,
        authorizedPresenter: String?? = .none, nonce: String?? = .none
    ) -> IDToken {
        IDToken(
            issuer: IssuerClaim(value: issuer ?? self.issuer.value), subject: SubjectClaim(value: subject ?? self.subject.value),
            audience: AudienceClaim(value: audience ?? self.audience.value),
            expires: ExpirationClaim(value: expires ?? self.expires.value), issuedAt: IssuedAtClaim(value: issuedAt ?? self.issuedAt.value),
            authorizedPresenter: authorizedPresenter ?? self.authorizedPresenter, nonce: nonce ?? self.nonce, email: email,
            emailVerified: emailVerified, name: name, givenName: givenName, familyName: familyName)
    }
}
