import Foundation
import OnTheMapModel
import OnTheMapStore

/// Login, sign-up and logout, independent of any wire shape.
struct AccountService: Sendable {
    let accounts: any AccountStore
    let sessions: any SessionStore
    let hasher: any PasswordHasher
    /// Where every password hash is computed: bounded, and fair across client addresses.
    let hashing: WorkLane
    /// A hash of a random password, verified against when the email is unknown so that an unknown
    /// email and a wrong password cost the same bcrypt work and answer in about the same time.
    /// Made by the first login for an unknown email rather than at start (a cost-12 hash is a
    /// quarter of a second of every start otherwise).
    let decoyHash: ComputedOnce<String>
    /// Failed logins per (email, client address): guessing one account's password.
    let loginFailures: any RateLimiter
    /// Failed logins per client address over every email: trying many accounts from one place.
    let addressLoginFailures: any RateLimiter
    /// Failed logins per email from devices that never logged in to it (`DeviceCookie`), over
    /// every address: one account guessed at from many places.
    let accountLoginFailures: any RateLimiter
    /// Signs and checks the device cookies.
    let devices: DeviceCookie
    /// Password resets with a token that is not live, per client address.
    let resetFailures: any RateLimiter
    /// Sign-ups per client address: each costs a bcrypt hash, so a flood would eat CPU.
    let signUps: any RateLimiter
    let sessionLifetimeSeconds: Int64
    /// A session unused this long has ended.
    let sessionIdleSeconds: Int64
    let clock: WallClock

    /// A new session: the raw token for the client and when it expires (microseconds), and, after
    /// a login with a password, a new device cookie.
    struct IssuedSession: Sendable {
        let account: Account
        let token: String
        let expiresAt: Int64
        var device: String?
    }

    /// Checks credentials; throttled per (email, client address) after repeated failures, per
    /// client address after many failures over any emails, and per email over every address for
    /// devices that never logged in to it (`device`: the request's device cookie). Each attempt is
    /// counted before its password is checked, so that a burst sent at once is held to the limits
    /// like one sent in turn; an attempt that turns out not to be a failure is taken back.
    /// Logs in with a password. `admits` may still refuse the account once it has proved who it is
    /// (a course's paths take only its members), before a session is made.
    func logIn(
        email rawEmail: String, password: String, clientAddress: String, device: String?,
        admits: @Sendable (Account) async throws -> Void = { _ in }
    ) async throws -> IssuedSession {
        do {
            let session = try await checkedLogIn(email: rawEmail, password: password, clientAddress: clientAddress, device: device, admits: admits)
            ServiceMetrics.login(method: .password, failure: nil)
            return session
        } catch {
            ServiceMetrics.login(method: .password, failure: error)
            throw error
        }
    }

    private func checkedLogIn(
        email rawEmail: String, password: String, clientAddress: String, device: String?, admits: @Sendable (Account) async throws -> Void
    ) async throws -> IssuedSession {
        let email = Validation.normalizedEmail(rawEmail)
        let throttleKey = email + "\u{0}" + clientAddress
        let pairTicket = try await loginFailures.admit(throttleKey, tooMany: "failed logins")
        let addressTicket: RateTicket
        do {
            addressTicket = try await addressLoginFailures.admit(clientAddress, tooMany: "failed logins from your network")
        } catch {
            await loginFailures.cancel(pairTicket)
            throw error
        }
        let account: Account?
        let matches: Bool
        var accountTicket: RateTicket?
        do {
            account = try await accounts.account(email: email)
            if !(account.map { devices.vouches(device, for: $0.key) } ?? false) {
                accountTicket = try await accountLoginFailures.admit(
                    email, tooMany: "failed logins for this account from new devices; log in from one you used before, or wait")
            }
            matches = try await hashing.run(key: clientAddress) {
                // An account with no password (made by a provider's sign-in) costs the same work.
                let hash = if let account, account.hasPassword { account.passwordHash } else { try await decoyHash.value }
                return try await hasher.verify(password, against: hash)
            }
        } catch {
            // Not a wrong password (refused for the account, the hashing line was full, the
            // database failed): not counted.
            await loginFailures.cancel(pairTicket)
            await addressLoginFailures.cancel(addressTicket)
            if let accountTicket { await accountLoginFailures.cancel(accountTicket) }
            throw error
        }
        guard let account, account.hasPassword, matches else { throw APIError.invalidCredentials }
        if let accountTicket { await accountLoginFailures.cancel(accountTicket) }
        guard !account.isDisabled else {
            // The right password: not a failure to count against the address or the pair.
            await loginFailures.cancel(pairTicket)
            await addressLoginFailures.cancel(addressTicket)
            throw APIError.accountDisabled
        }
        // Only this pair is cleared: one good login must not wipe an address's record of failures.
        await loginFailures.reset(throttleKey)
        await addressLoginFailures.cancel(addressTicket)
        try await admits(account)
        if hasher.needsRehash(account.passwordHash) { await rehash(account, password: password, clientAddress: clientAddress) }
        var session = try await startSession(for: account)
        session.device = devices.issue(for: account.key)
        return session
    }

    /// Replaces a hash made before the current scheme, now that the password is known to match.
    /// The login goes ahead if this fails: the old hash still works.
    private func rehash(_ account: Account, password: String, clientAddress: String) async {
        guard let hash = try? await hashing.run(key: clientAddress, { try await hasher.hash(password) }) else { return }
        try? await accounts.replacePasswordHash(key: account.key, old: account.passwordHash, new: hash)
    }

    /// Creates an account and logs it in; limited per client address. A password among the most
    /// common is refused before anything is counted.
    func signUp(_ request: SignUp, clientAddress: String) async throws -> IssuedSession {
        try PasswordRules.check(request.password)
        try await signUps.admit(clientAddress, tooMany: "sign-ups from your network")
        let account = try await AccountCreation.create(request, isAdmin: false, in: accounts, clock: clock) { [hashing, hasher] password in
            try await hashing.run(key: clientAddress) { try await hasher.hash(password) }
        }
        var session = try await startSession(for: account)
        session.device = devices.issue(for: account.key)
        return session
    }

    /// Sets a new password with a one-time link an admin issued; every session of the account ends.
    /// The same password rules as sign-up. The token is checked before the password is hashed, so
    /// that guessing tokens costs no bcrypt work; each wrong one counts against the address.
    func resetPassword(token: String, password rawPassword: String, resets: any ModerationStore, clientAddress: String) async throws {
        let password = try Validation.password(rawPassword)
        try PasswordRules.check(password)
        let expired = APIError.validation("token", "This link has expired or was already used: ask an admin of the map for a new one.")
        let tokenHash = SessionToken.hash(token)
        let ticket = try await resetFailures.admit(clientAddress, tooMany: "password reset attempts from your network")
        guard try await resets.passwordResetIsLive(tokenHash: tokenHash, now: clock.nowMillis()) else { throw expired }
        await resetFailures.cancel(ticket)
        let hash = try await hashing.run(key: clientAddress) { try await hasher.hash(password) }
        guard try await resets.redeemPasswordReset(tokenHash: tokenHash, newPasswordHash: hash, now: clock.nowMillis()) != nil else {
            throw expired
        }
    }

    /// The caller types their password again (an admin about to change accounts): checked as a
    /// login is, throttled with its (email, address) pair, and recorded on the session.
    func confirmPassword(_ password: String, for caller: Caller, clientAddress: String) async throws {
        guard caller.account.hasPassword else {
            throw APIError.noPasswordToConfirm
        }
        let throttleKey = caller.account.email + "\u{0}" + clientAddress
        let ticket = try await loginFailures.admit(throttleKey, tooMany: "failed logins")
        let matches: Bool
        do {
            matches = try await hashing.run(key: clientAddress) { try await hasher.verify(password, against: caller.account.passwordHash) }
        } catch {
            await loginFailures.cancel(ticket)
            throw error
        }
        guard matches else { throw APIError.invalidCredentials }
        await loginFailures.cancel(ticket)
        try await sessions.confirmSessionPassword(tokenHash: SessionToken.hash(caller.token), at: clock.nowMicros())
    }

    /// Ends the session with this token (nothing happens when it has already ended).
    func logOut(token: String) async throws {
        try await sessions.deleteSession(tokenHash: SessionToken.hash(token))
    }

    /// A new session for an account whose owner has proved who they are.
    func startSession(for account: Account) async throws -> IssuedSession {
        let token = Identifiers.token()
        let now = clock.nowMicros()
        let expiresAt = now + sessionLifetimeSeconds * 1_000_000
        try await sessions.insertSession(
            SessionRecord(tokenHash: SessionToken.hash(token), accountKey: account.key, createdAt: now, expiresAt: expiresAt,
                          idleExpiresAt: now + sessionIdleSeconds * 1_000_000))
        return IssuedSession(account: account, token: token, expiresAt: expiresAt)
    }
}
