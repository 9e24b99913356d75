import Foundation
import NIOCore

/// A JWK set published at a URL (an OpenID provider's `jwks_uri`; an LTI platform's keyset URL),
/// fetched when first needed and kept for an hour. A token signed with a key the set lacks makes it
/// be fetched again (a signer that rotated its keys), but not more often than every 30 seconds, so
/// that tokens naming made-up keys cannot make this server hammer the signer. A signer briefly down
/// keeps being checked against the keys it published last.
actor PublishedKeys {
    let url: URL
    private let http: ProviderHTTP
    private var keys: (value: ProviderKeys, fetched: ContinuousClock.Instant)?
    static let cacheLifetime: Duration = .seconds(3600)
    static let keyRefetchInterval: Duration = .seconds(30)

    init(url: URL, http: ProviderHTTP) {
        self.url = url
        self.http = http
    }

    /// What `check` makes of the keys; when it finds the token's key missing
    /// (`ProviderKeys.NotPublished`), once more with the set fetched again, if it may be. Throws
    /// `NotPublished` when the key is still missing; `SignInFailure.providerUnavailable` when there
    /// are no usable keys.
    func verifying<T: Sendable>(_ check: @Sendable (ProviderKeys) async throws -> T) async throws -> T {
        do {
            return try await check(try await current())
        } catch is ProviderKeys.NotPublished {
            guard let keys, ContinuousClock.now - keys.fetched > Self.keyRefetchInterval else { throw ProviderKeys.NotPublished() }
            self.keys = nil
            return try await check(try await current())
        }
    }

    private func current() async throws -> ProviderKeys {
        if let keys, ContinuousClock.now - keys.fetched < Self.cacheLifetime { return keys.value }
        let fetched: ProviderKeys
        do {
            fetched = try await ProviderKeys(jwks: try await http.get(url))
        } catch {
            if let keys { return keys.value }
            if let failure = error as? SignInFailure { throw failure }
            throw SignInFailure.providerUnavailable("the keys at \(url.absoluteString) are unusable: \(error)")
        }
        keys = (fetched, .now)
        return fetched
    }
}
