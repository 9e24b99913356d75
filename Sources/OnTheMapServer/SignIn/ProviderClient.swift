import Crypto
import Foundation
import JWTKit
import NIOCore
import NIOFoundationCompat
import OnTheMapModel

/// One configured provider, as this server talks to it: discovery fetched when first needed and
/// kept for an hour, its signing keys likewise (`PublishedKeys`), the authorization URL, the code
/// exchange, and the ID token's verification.
actor ProviderClient {
    let provider: SignInProvider
    private let http: ProviderHTTP
    /// What an ID token's times are checked against.
    private let clock: WallClock
    private var metadata: (value: ProviderMetadata, fetched: ContinuousClock.Instant)?
    /// The keys at the discovery document's `jwks_uri` (a new one if the document names another).
    private var keys: PublishedKeys?
    static let cacheLifetime: Duration = .seconds(3600)

    init(provider: SignInProvider, http: ProviderHTTP = ProviderHTTP(), clock: WallClock = .system) {
        self.provider = provider
        self.http = http
        self.clock = clock
    }

    /// Where to send the browser: the authorization code flow with PKCE (S256), `state` and `nonce`.
    func authorizationURL(redirectURI: String, state: String, nonce: String, codeVerifier: String) async throws -> URL {
        let endpoint = try await currentMetadata().authorizationEndpoint
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw SignInFailure.providerUnavailable("unusable authorization_endpoint \(endpoint)")
        }
        let parameters = [
            ("response_type", "code"), ("client_id", provider.clientID), ("redirect_uri", redirectURI),
            ("scope", "openid email profile"), ("state", state), ("nonce", nonce),
            ("code_challenge", Self.codeChallenge(codeVerifier)), ("code_challenge_method", "S256"),
        ]
        // The endpoint's own query (some carry one) is kept; every value is form-encoded in full.
        let query = [components.percentEncodedQuery, ProviderHTTP.form(parameters)].compactMap { $0 }.filter { !$0.isEmpty }
        components.percentEncodedQuery = query.joined(separator: "&")
        guard let url = components.url else { throw SignInFailure.providerUnavailable("could not build the authorization URL") }
        return url
    }

    /// Trades the authorization code for the ID token (with the PKCE verifier and the client's secret).
    func idToken(code: String, codeVerifier: String, redirectURI: String) async throws -> String {
        let metadata = try await currentMetadata()
        guard let tokenEndpoint = metadata.tokenEndpoint else { throw SignInFailure.providerUnavailable("no token endpoint") }
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", codeVerifier)]
        let basic = metadata.usesBasicAuth
        if !basic { fields += [("client_id", provider.clientID), ("client_secret", provider.clientSecret)] }
        let (status, body) = try await http.postForm(
            tokenEndpoint, fields: fields, basicAuth: basic ? (provider.clientID, provider.clientSecret) : nil)
        struct TokenAnswer: Decodable {
            let id_token: String?
            let error: String?
            let error_description: String?
        }
        let answer = try? JSONDecoder().decode(TokenAnswer.self, from: body)
        guard status == .ok else {
            let reason = [answer?.error, answer?.error_description].compactMap { $0 }.joined(separator: ": ")
            // A refused code (invalid_grant: used, expired, not this client's) is the provider saying no.
            if status.code >= 400, status.code < 500, answer?.error != nil { throw SignInFailure.cancelled("the token endpoint refused the code: \(reason)") }
            throw SignInFailure.providerUnavailable("the token endpoint answered \(status.code) \(reason)")
        }
        guard let idToken = answer?.id_token, !idToken.isEmpty else {
            throw SignInFailure.invalidToken("the token endpoint's answer has no id_token")
        }
        return idToken
    }

    /// The ID token's claims once its signature, audience, issuer, times and nonce all hold.
    func verifiedClaims(of idToken: String, nonce: String) async throws -> IDToken {
        let metadata = try await currentMetadata()
        let published = keys.flatMap { $0.url == metadata.jwksURI ? $0 : nil } ?? PublishedKeys(url: metadata.jwksURI, http: http)
        keys = published
        let (clientID, now) = (provider.clientID, clock.now)
        do {
            return try await published.verifying { keys in
                try await Self.verifiedClaims(of: idToken, keys: keys, issuer: metadata.issuer, clientID: clientID, nonce: nonce, now: now)
            }
        } catch is ProviderKeys.NotPublished {
            throw SignInFailure.invalidToken("signed with a key the provider does not publish")
        }
    }

    /// The claims of `idToken` when its signature holds under one of `keys`, it was made for
    /// `clientID` alone, and `IDToken.check` passes. A key id the set lacks is
    /// `ProviderKeys.NotPublished` (the set may be out of date); every other failure is
    /// `SignInFailure.invalidToken`.
    static func verifiedClaims(
        of idToken: String, keys: ProviderKeys, issuer: String, clientID: String, nonce: String, now: Date
    ) async throws -> IDToken {
        let kid = ProviderKeys.keyID(of: idToken)
        if let kid, !keys.ids.contains(kid) { throw ProviderKeys.NotPublished() }
        let token: IDToken
        do {
            // Without a key id, any of the provider's keys may have signed it.
            token = try await keys.collection.verify(idToken, as: IDToken.self, expectedAudience: clientID, iteratingKeys: kid == nil)
        } catch {
            throw SignInFailure.invalidToken("\(error)")
        }
        try token.check(issuer: issuer, clientID: clientID, nonce: nonce, now: now)
        return token
    }

    private func currentMetadata() async throws -> ProviderMetadata {
        if let metadata, ContinuousClock.now - metadata.fetched < Self.cacheLifetime { return metadata.value }
        guard let url = ProviderMetadata.discoveryURL(issuer: provider.issuer) else {
            throw SignInFailure.providerUnavailable("no discovery URL for \(provider.issuer)")
        }
        var fetched: ProviderMetadata
        do {
            fetched = try JSONDecoder().decode(ProviderMetadata.self, from: try await http.get(url))
            if let endpoint = provider.tokenEndpoint { fetched.tokenEndpoint = endpoint }
            try fetched.check(configuredIssuer: provider.issuer)
        } catch {
            // A provider briefly down keeps working with what it said last.
            if let metadata { return metadata.value }
            if let failure = error as? SignInFailure { throw failure }
            throw SignInFailure.providerUnavailable("discovery at \(url.absoluteString) is unusable: \(error)")
        }
        metadata = (fetched, .now)
        return fetched
    }

    /// PKCE S256: base64url of the verifier's SHA-256, without padding (RFC 7636, 4.2).
    static func codeChallenge(_ verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Array(verifier.utf8))))
    }
}
