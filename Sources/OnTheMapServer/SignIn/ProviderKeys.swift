import Foundation
import JWTKit
import NIOCore
import NIOFoundationCompat

/// A provider's published signing keys (its JWK set) and their ids. jwt-kit falls back on its
/// default key for a key id it does not hold; knowing the ids lets a token signed with a new key
/// be told apart (ask for the set again) from a token that is simply wrong.
struct ProviderKeys: Sendable {
    let collection: JWTKeyCollection
    let ids: Set<String>

    /// A token's key id names no key of the set.
    struct NotPublished: Error {}

    /// The signing keys of a JWK set. Keys for encryption and of kinds jwt-kit does not know are
    /// left out rather than failing the set (Keycloak publishes an RSA-OAEP key beside its signing
    /// key). Symmetric keys never come from a JWK set, so a token signed with the client's secret
    /// (or with `alg: none`) finds no key and is refused.
    init(jwks body: ByteBuffer) async throws {
        struct LenientKey: Decodable {
            let key: JWK?
            let use: String?
            enum CodingKeys: CodingKey { case use }
            init(from decoder: any Decoder) throws {
                key = try? JWK(from: decoder)
                use = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .use)
            }
        }
        struct KeySet: Decodable { let keys: [LenientKey] }
        let set = try JSONDecoder().decode(KeySet.self, from: body)
        let collection = JWTKeyCollection()
        var ids: Set<String> = []
        for (index, entry) in set.keys.enumerated() where entry.use != "enc" {
            guard var key = entry.key else { continue }
            // A key without an id (rare) gets one here; a token without a `kid` tries every key.
            if key.keyIdentifier == nil { key.keyIdentifier = JWKIdentifier(string: "#\(index)") }
            if (try? await collection.add(jwk: key)) != nil, let id = key.keyIdentifier?.string { ids.insert(id) }
        }
        guard !ids.isEmpty else { throw SignInFailure.providerUnavailable("the JWK set holds no signing key this server can use") }
        self.collection = collection
        self.ids = ids
    }

    /// The `kid` of a token's header, if it has one (read before any check: it only picks a key).
    static func keyID(of token: String) -> String? {
        guard let header = token.split(separator: ".", omittingEmptySubsequences: false).first,
              let data = Base64URL.decode(header) else { return nil }
        struct Header: Decodable { let kid: String? }
        return (try? JSONDecoder().decode(Header.self, from: data))?.kid
    }
}
