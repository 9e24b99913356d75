/// A login started at an OpenID Connect provider and not yet finished: what the server must
/// remember between sending the browser to the provider and its coming back. Kept in the database
/// (not in one instance's memory), so that any instance behind the balancer can finish it.
public struct PendingExternalLogin: Sendable, Equatable {
    /// SHA-256 of the `state` sent to the provider, lowercase hex: the database never holds a
    /// `state` a thief could finish someone's login with.
    public var stateHash: String
    /// The configured provider's id.
    public var provider: String
    /// The `nonce` the ID token must carry back.
    public var nonce: String
    /// PKCE: the secret whose SHA-256 went to the provider as `code_challenge`.
    public var codeVerifier: String
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    public var expiresAt: Int64

    public init(stateHash: String, provider: String, nonce: String, codeVerifier: String, createdAt: Int64, expiresAt: Int64) {
        self.stateHash = stateHash
        self.provider = provider
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A person as a provider knows them (`iss` and `sub` of its ID tokens), linked to an account here.
/// An account may have several; a provider's subject belongs to one account.
public struct ExternalIdentity: Sendable, Equatable {
    public var provider: String
    /// The provider's `sub`: stable for the person even when their email changes.
    public var subject: String
    public var accountKey: String
    /// The verified email the link was made with (kept for admins; not used to log in).
    public var email: String
    /// Milliseconds since the epoch.
    public var linkedAt: Int64

    public init(provider: String, subject: String, accountKey: String, email: String, linkedAt: Int64) {
        self.provider = provider
        self.subject = subject
        self.accountKey = accountKey
        self.email = email
        self.linkedAt = linkedAt
    }
}

extension Account {
    /// The `passwordHash` of an account made by signing in with a provider: no password matches
    /// it (it is no hash), so the account logs in only through its provider until an admin's reset
    /// link gives it a password.
    public static let noPassword = "!external"

    /// False for an account made by a provider's sign-in that has never set a password.
    public var hasPassword: Bool { passwordHash != Self.noPassword }
}
