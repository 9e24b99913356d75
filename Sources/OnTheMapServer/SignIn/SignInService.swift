import Foundation
import OnTheMapModel
import OnTheMapStore

/// Signing in with an OpenID Connect provider, independent of HTTP: the start (a pending login in
/// the database, the provider's URL) and the finish (the login taken back once, the code traded,
/// the ID token verified, the account found, linked or made, a session started).
struct SignInService: Sendable {
    let clients: [String: ProviderClient]
    let store: any ExternalLoginStore & AccountStore
    let accounts: AccountService
    /// The origin redirects name (`ORIGIN/v1/oidc/ID/callback` for providers, the login page for
    /// students); set whenever a provider is configured, so empty (relative redirects) only when
    /// there is none.
    let origin: String
    /// Logins started per client address: each writes a row.
    let starts: any RateLimiter
    let clock: WallClock
    /// How long a student may take at the provider.
    static let pendingLifetimeMillis: Int64 = 10 * 60 * 1000

    init(providers: [SignInProvider], store: any ExternalLoginStore & AccountStore, accounts: AccountService,
         publicURL: PublicURL?, starts: any RateLimiter, clock: WallClock, http: ProviderHTTP = ProviderHTTP()) {
        clients = Dictionary(uniqueKeysWithValues: providers.map { ($0.id, ProviderClient(provider: $0, http: http, clock: clock)) })
        self.store = store
        self.accounts = accounts
        origin = publicURL?.origin ?? ""
        self.starts = starts
        self.clock = clock
    }

    func redirectURI(provider id: String) -> String { origin + "/v1/oidc/\(id)/callback" }

    /// A new login at the provider: where to send the browser, and the `state` to bind to it.
    func start(provider id: String, clientAddress: String) async throws -> (url: URL, state: String) {
        guard let client = clients[id] else { throw SignInFailure.unknownProvider }
        try await starts.admit(clientAddress, tooMany: "sign-ins from your network")
        let state = Identifiers.token()
        let nonce = Identifiers.token()
        let verifier = Identifiers.token()
        // Asked before the login is stored: a provider that is down stores nothing.
        let url = try await client.authorizationURL(redirectURI: redirectURI(provider: id), state: state, nonce: nonce, codeVerifier: verifier)
        let now = clock.nowMillis()
        try await store.savePendingLogin(PendingExternalLogin(
            stateHash: SessionToken.hash(state), provider: id, nonce: nonce, codeVerifier: verifier,
            createdAt: now, expiresAt: now + Self.pendingLifetimeMillis))
        return (url, state)
    }

    /// What the provider sent back to `/v1/oidc/ID/callback`.
    struct Callback: Sendable {
        var state: String?
        var code: String?
        var error: String?
        var errorDescription: String?
        /// The `state` this browser was given at the start (its cookie).
        var browserState: String?
    }

    /// Finishes a login: a session for the account, or the `SignInFailure` saying why not.
    func finish(provider id: String, _ callback: Callback) async throws -> AccountService.IssuedSession {
        do {
            let session = try await checkedFinish(provider: id, callback)
            ServiceMetrics.login(method: .provider, failure: nil)
            return session
        } catch {
            ServiceMetrics.login(method: .provider, failure: error)
            throw error
        }
    }

    private func checkedFinish(provider id: String, _ callback: Callback) async throws -> AccountService.IssuedSession {
        guard let client = clients[id] else { throw SignInFailure.unknownProvider }
        // An error sent without the state (RFC 6749 4.1.2.1 asks for it; not every provider sends
        // it) logs nobody in: say what the provider said, and let the pending login expire.
        if let error = callback.error, callback.state == nil { throw Self.failure(error: error, description: callback.errorDescription) }
        guard let state = callback.state, !state.isEmpty, state.utf8.count <= 256 else { throw SignInFailure.expired("no state") }
        // Bound to the browser that started it: a login someone else began cannot be finished here
        // (login cross-site request forgery, RFC 6749 10.12).
        guard callback.browserState == state else { throw SignInFailure.expired("state is not this browser's") }
        // Taken whatever comes next: a state is good for one try.
        guard let pending = try await store.takePendingLogin(stateHash: SessionToken.hash(state), now: clock.nowMillis()),
              pending.provider == id else { throw SignInFailure.expired("state unknown, used or expired") }
        if let error = callback.error { throw Self.failure(error: error, description: callback.errorDescription) }
        guard let code = callback.code, !code.isEmpty, code.utf8.count <= 4096 else { throw SignInFailure.cancelled("no code") }
        let idToken = try await client.idToken(code: code, codeVerifier: pending.codeVerifier, redirectURI: redirectURI(provider: id))
        let claims = try await client.verifiedClaims(of: idToken, nonce: pending.nonce)
        let account = try await account(for: claims, provider: client.provider)
        guard !account.isDisabled else { throw SignInFailure.accountDisabled }
        return try await accounts.startSession(for: account)
    }

    /// An error the provider sent back instead of a code (OpenID Connect Core 3.1.2.6): the student
    /// said no or could not log in there, or the provider failed.
    static func failure(error: String, description: String?) -> SignInFailure {
        let said = [error, description].compactMap { $0 }.joined(separator: ": ")
        let byTheStudent = ["access_denied", "login_required", "consent_required", "interaction_required", "account_selection_required"]
        return byTheStudent.contains(error) ? .cancelled(said) : .providerUnavailable("the provider said \(said)")
    }

    /// The account linked to this person at this provider; else the account with their verified
    /// email, now linked; else a new account, linked, named from the claims.
    private func account(for claims: IDToken, provider: SignInProvider) async throws -> Account {
        let subject = claims.subject.value
        if let linked = try await store.account(provider: provider.id, subject: subject) { return linked }
        guard let rawEmail = claims.email, let email = try? Validation.email(rawEmail) else { throw SignInFailure.noEmail }
        guard provider.trustsEmail || claims.emailVerified?.value == true else { throw SignInFailure.emailUnverified }
        let now = clock.nowMillis()
        for _ in 0..<5 {
            if let existing = try await store.account(email: email) {
                guard !existing.isDisabled else { throw SignInFailure.accountDisabled }
                try await store.link(ExternalIdentity(provider: provider.id, subject: subject, accountKey: existing.key, email: email, linkedAt: now))
                return existing
            }
            let names = Self.names(from: claims, email: email)
            let account = Account(key: Identifiers.accountKey(), email: email, firstName: names.first, lastName: names.last,
                                  passwordHash: Account.noPassword, isAdmin: false, createdAt: now)
            do {
                try await store.insertAccount(account, linkedTo: ExternalIdentity(
                    provider: provider.id, subject: subject, accountKey: account.key, email: email, linkedAt: now))
                return account
            } catch StoreError.emailTaken, StoreError.keyTaken {
                // Made at this moment by another login of the same person (link to it), or a key
                // drawn twice (draw again).
                continue
            }
        }
        throw StoreError.keyTaken
    }

    /// First and last name: `given_name` and `family_name`, else `name` split at its last space,
    /// else the email's local part as the first name. A provider that gives no family name leaves
    /// the last name empty (as legacy clients' pins may be) rather than inventing one.
    static func names(from claims: IDToken, email: String) -> (first: String, last: String) {
        let clean = Validation.nameFromElsewhere
        var first = clean(claims.givenName)
        var last = clean(claims.familyName)
        let full = clean(claims.name)
        if first.isEmpty, !full.isEmpty {
            if let space = full.lastIndex(of: " "), last.isEmpty {
                first = clean(String(full[..<space]))
                last = clean(String(full[full.index(after: space)...]))
            } else {
                first = full
            }
        }
        if first.isEmpty { first = clean(String(email.prefix { $0 != "@" })) }
        return (first, last)
    }
}
