/// Why a sign-in through a provider did not log anyone in. Each has a `code` the login page turns
/// into a sentence (`/?login-error=CODE#/login`); `detail` is for the server's log only.
enum SignInFailure: Error, Equatable {
    /// The provider could not be reached, or answered something unusable, before the student chose.
    case providerUnavailable(String)
    /// The student said no at the provider (`error=access_denied`), or the provider refused.
    case cancelled(String)
    /// The `state` is unknown, used already, expired, or not this browser's.
    case expired(String)
    /// The ID token failed a check: signature, issuer, audience, time, nonce.
    case invalidToken(String)
    /// The provider gave no email, so no account can be found or made.
    case noEmail
    /// The email is not verified by the provider, so it cannot link to an account here.
    case emailUnverified
    /// The account exists and an admin disabled it.
    case accountDisabled
    /// No provider with that id is configured.
    case unknownProvider

    var code: String {
        switch self {
        case .providerUnavailable: "provider-unavailable"
        case .cancelled: "cancelled"
        case .expired: "expired"
        case .invalidToken: "invalid-token"
        case .noEmail: "no-email"
        case .emailUnverified: "email-unverified"
        case .accountDisabled: "disabled"
        case .unknownProvider: "unknown-provider"
        }
    }

    var detail: String {
        switch self {
        case .providerUnavailable(let detail), .cancelled(let detail), .expired(let detail), .invalidToken(let detail): detail
        case .noEmail: "the ID token has no email"
        case .emailUnverified: "the ID token's email is not verified"
        case .accountDisabled: "the account is disabled"
        case .unknownProvider: "no such provider"
        }
    }
}
