import CryptoExtras
import Foundation
import JWTKit
import OnTheMapModel
import OnTheMapStore

/// The tool's own signing keys (LTI 1.3 Core 6.1; 1EdTech Security Framework 6): it signs the
/// messages it sends a platform (a deep-linking answer, the assertion that asks for an access
/// token) and publishes the public halves at `/lti/jwks`, which a platform reads to check them.
/// RSA 2048 with SHA-256 (RS256), as the specification requires platforms to accept. The private
/// halves are kept in the database sealed under the server's secret, so every instance of one
/// database signs with the same key and a copy of the database alone signs nothing.
struct LTIToolKeys: Sendable {
    let store: any LTIStore
    let secret: ServerSecret
    let clock: WallClock

    /// A retired key stays published this long after the rotation that retired it: longer than a
    /// platform keeps a key set, and than any message signed with it lives.
    static let retiredKeysPublishedFor: Int64 = 7 * 24 * 3_600_000

    private static let sealingPurpose = "lti tool key"

    /// A key of the set, opened.
    struct Key: Sendable {
        let kid: String
        let privateKey: JWTKit.Insecure.RSA.PrivateKey
        let signs: Bool
    }

    /// The keys, the one that signs first; made the first time they are asked for.
    func keys() async throws -> [Key] {
        var stored = try await store.toolKeys()
        if stored.isEmpty { stored = try await store.addFirstToolKey(try newKey()) }
        return try stored.map { key in
            Key(kid: key.kid, privateKey: try open(key), signs: key.retiredAt == nil)
        }
    }

    /// Makes a new key the one that signs; the one before stays published (`retiredKeysPublishedFor`).
    /// Returns the new key's id.
    @discardableResult
    func rotate(audit: AuditEntry? = nil) async throws -> String {
        let key = try newKey()
        try await store.rotateToolKey(to: key, dropRetiredBefore: key.createdAt - Self.retiredKeysPublishedFor, audit: audit)
        return key.kid
    }

    /// `payload` signed with the key that signs (RS256), its id in the header: what a platform
    /// checks against `publicKeySet`.
    func sign(_ payload: some JWTPayload) async throws -> String {
        guard let key = try await keys().first(where: \.signs) else { throw KeyUnreadable(kid: "none") }
        let signer = JWTKeyCollection()
        await signer.add(rsa: key.privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.kid))
        return try await signer.sign(payload, kid: JWKIdentifier(string: key.kid))
    }

    /// The public JWK set (RFC 7517): every published key's modulus and exponent, nothing private.
    func publicKeySet() async throws -> JWKSet {
        JWKSet(keys: try await keys().map { key in
            let (modulus, exponent) = try key.privateKey.publicKey.getKeyPrimitives()
            return JWKSet.Key(kid: key.kid, n: Base64URL.encode(modulus), e: Base64URL.encode(exponent))
        })
    }

    struct JWKSet: Encodable, Sendable {
        struct Key: Encodable, Sendable {
            var kty = "RSA"
            var alg = "RS256"
            var use = "sig"
            let kid: String
            let n: String
            let e: String
        }
        let keys: [Key]
    }

    private func newKey() throws -> LTIToolKey {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let sealed = try secret.seal(Array(key.derRepresentation), for: Self.sealingPurpose)
        return LTIToolKey(kid: Identifiers.token(bytes: 16), sealedPrivateKey: Data(sealed).base64EncodedString(), createdAt: clock.nowMillis())
    }

    /// The key's private half; fails when the server's secret is not the one it was sealed under.
    private func open(_ key: LTIToolKey) throws -> JWTKit.Insecure.RSA.PrivateKey {
        guard let sealed = Data(base64Encoded: key.sealedPrivateKey) else { throw KeyUnreadable(kid: key.kid) }
        do {
            let der = try secret.open(Array(sealed), for: Self.sealingPurpose)
            return try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(derRepresentation: der))
        } catch {
            throw KeyUnreadable(kid: key.kid)
        }
    }

    /// A key sealed under another secret than this server's (`--secret-file`), or damaged.
    struct KeyUnreadable: Error, CustomStringConvertible {
        let kid: String
        var description: String {
            "the LTI tool key \(kid) cannot be opened with this server's secret: every instance must have the same --secret-file"
        }
    }
}
