import OnTheMapModel

/// Sign-in with an OpenID Connect provider (issue 13): logins on their way through a provider, and
/// which of a provider's people belong to which account.
public protocol ExternalLoginStore: Sendable {
    /// Keeps a login started at a provider until its `expiresAt`.
    func savePendingLogin(_ login: PendingExternalLogin) async throws
    /// Removes and returns the login with this state hash when it has not expired at `now`
    /// (milliseconds): a `state` finishes at most one login, however often it is sent back.
    func takePendingLogin(stateHash: String, now: Int64) async throws -> PendingExternalLogin?
    /// Drops logins that expired before `now`, unfinished; returns how many.
    func deleteExpiredPendingLogins(now: Int64) async throws -> Int
    /// The account the provider's subject is linked to.
    func account(provider: String, subject: String) async throws -> Account?
    /// Links the provider's subject to its account; nothing happens when it is linked already.
    func link(_ identity: ExternalIdentity) async throws
    /// Creates the account and links the identity to it, in one write: an account made by a
    /// provider's sign-in never exists without the link that lets it log in. Throws
    /// `StoreError.emailTaken` or `.keyTaken` on a clash.
    func insertAccount(_ account: Account, linkedTo identity: ExternalIdentity) async throws
    /// The identities linked to an account, oldest first.
    func identities(accountKey: String) async throws -> [ExternalIdentity]
}
