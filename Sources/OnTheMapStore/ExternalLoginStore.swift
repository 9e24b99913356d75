import OnTheMapModel

/// Sign-in with an OpenID Connect provider: logins on their way through a provider, and
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
    /// Every account's linked identities, by account key.
    func allIdentities() async throws -> [String: [ExternalIdentity]]
}

extension AccountStore where Self: ExternalLoginStore {
    /// Every account, oldest first, as `format` (CSV or JSON lines, never a password hash), handed
    /// to `write` a piece at a time. Returns how many accounts.
    @discardableResult
    public func exportAccounts(as format: ExportFormat, to write: (String) async throws -> Void) async throws -> Int {
        precondition(format.holdsAccounts, "accounts are exported as CSV or JSON lines")
        let identities = try await allIdentities()
        let accounts = try await allAccounts()
        try await write(format.accountHeader)
        for account in accounts {
            try await write(format.accountEntry(account, providers: (identities[account.key] ?? []).map(\.provider)))
        }
        return accounts.count
    }
}
