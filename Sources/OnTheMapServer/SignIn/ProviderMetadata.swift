import Foundation

/// What a provider's discovery document (`ISSUER/.well-known/openid-configuration`) says, the
/// fields sign-in uses (OpenID Connect Discovery 1.0, section 3).
struct ProviderMetadata: Decodable, Sendable {
    let issuer: String
    let authorizationEndpoint: URL
    /// Missing from a few providers' documents (Facebook's): then the provider's `token-endpoint`
    /// setting gives it.
    var tokenEndpoint: URL?
    let jwksURI: URL
    let tokenEndpointAuthMethodsSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
    }

    /// Where discovery is, for an issuer with or without a path (`https://gitlab.example.org`,
    /// `https://login.microsoftonline.com/TENANT/v2.0`).
    static func discoveryURL(issuer: String) -> URL? {
        URL(string: withoutTrailingSlash(issuer) + "/.well-known/openid-configuration")
    }

    private static func withoutTrailingSlash(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }

    /// The document must be the configured issuer's own (Discovery 1.0, 4.3: the issuer it states is
    /// the one asked about), and every endpoint it gives must be one a secret may be sent to.
    func check(configuredIssuer: String) throws(SignInFailure) {
        guard let tokenEndpoint else {
            throw .providerUnavailable("discovery gives no token_endpoint: set token-endpoint in the provider's settings")
        }
        guard Self.withoutTrailingSlash(issuer) == Self.withoutTrailingSlash(configuredIssuer) else {
            throw .providerUnavailable("discovery names issuer \(issuer), not the configured \(configuredIssuer)")
        }
        for endpoint in [authorizationEndpoint, tokenEndpoint, jwksURI] where !SignInProvider.isAllowedEndpoint(endpoint) {
            throw .providerUnavailable("discovery gives \(endpoint.absoluteString), which is not https")
        }
    }

    /// Client authentication at the token endpoint: HTTP Basic, the default, unless the provider
    /// lists only the form-body method.
    var usesBasicAuth: Bool {
        guard let methods = tokenEndpointAuthMethodsSupported, !methods.isEmpty else { return true }
        return methods.contains("client_secret_basic") || !methods.contains("client_secret_post")
    }
}
