import OnTheMapModel
import SQLKit

extension SQLStore: ExternalLoginStore {
    public func savePendingLogin(_ login: PendingExternalLogin) async throws {
        try await writer.run(SQLQueryString("""
            INSERT INTO pending_logins (state_hash, provider, nonce, code_verifier, created_at, expires_at)
            VALUES (\(bind: login.stateHash), \(bind: login.provider), \(bind: login.nonce), \(bind: login.codeVerifier),
                    \(bind: login.createdAt), \(bind: login.expiresAt))
            """))
    }

    /// One statement: of two requests bringing the same `state` back at once, one gets the row.
    public func takePendingLogin(stateHash: String, now: Int64) async throws -> PendingExternalLogin? {
        guard stateHash.isStorable else { return nil }
        let rows = try await writer.run(SQLQueryString("""
            DELETE FROM pending_logins WHERE state_hash = \(bind: stateHash)
            RETURNING state_hash, provider, nonce, code_verifier, created_at, expires_at
            """))
        guard let row = rows.first else { return nil }
        let login = PendingExternalLogin(
            stateHash: try row.decode(column: "state_hash", as: String.self), provider: try row.decode(column: "provider", as: String.self),
            nonce: try row.decode(column: "nonce", as: String.self), codeVerifier: try row.decode(column: "code_verifier", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self), expiresAt: try row.decode(column: "expires_at", as: Int64.self))
        // Expired, it is gone all the same.
        return login.expiresAt > now ? login : nil
    }

    public func deleteExpiredPendingLogins(now: Int64) async throws -> Int {
        try await writer.run(SQLQueryString("DELETE FROM pending_logins WHERE expires_at <= \(bind: now) RETURNING state_hash")).count
    }

    public func account(provider: String, subject: String) async throws -> Account? {
        guard provider.isStorable, subject.isStorable else { return nil }
        return try await reader.raw("""
            SELECT \(unsafeRaw: Self.accountColumns) FROM accounts WHERE key =
                (SELECT account_key FROM account_identities WHERE provider = \(bind: provider) AND subject = \(bind: subject))
            """).first().map(Self.account(from:))
    }

    public func link(_ identity: ExternalIdentity) async throws {
        try await writer.run(Self.insert(identity))
    }

    public func insertAccount(_ account: Account, linkedTo identity: ExternalIdentity) async throws {
        do {
            try await writer.perform(WriteUnit(Self.insert(account) + [Self.insert(identity)]) { _ in ((), []) })
        } catch {
            if try await self.account(email: account.email) != nil { throw StoreError.emailTaken }
            if try await self.account(key: account.key) != nil { throw StoreError.keyTaken }
            throw error
        }
    }

    public func identities(accountKey: String) async throws -> [ExternalIdentity] {
        guard accountKey.isStorable else { return [] }
        return try await reader.raw("""
            SELECT provider, subject, account_key, email, linked_at FROM account_identities
            WHERE account_key = \(bind: accountKey) ORDER BY linked_at, provider, subject
            """).all().map(Self.identity(from:))
    }

    public func allIdentities() async throws -> [String: [ExternalIdentity]] {
        let identities = try await reader.raw("""
            SELECT provider, subject, account_key, email, linked_at FROM account_identities ORDER BY linked_at, provider, subject
            """).all().map(Self.identity(from:))
        return Dictionary(grouping: identities, by: \.accountKey)
    }

    static func identity(from row: any SQLRow) throws -> ExternalIdentity {
        ExternalIdentity(
            provider: try row.decode(column: "provider", as: String.self), subject: try row.decode(column: "subject", as: String.self),
            accountKey: try row.decode(column: "account_key", as: String.self), email: try row.decode(column: "email", as: String.self),
            linkedAt: try row.decode(column: "linked_at", as: Int64.self))
    }

    /// Two first logins of one person at once both try to link: the second finds the link made.
    static func insert(_ identity: ExternalIdentity) -> SQLQueryString {
        """
        INSERT INTO account_identities (provider, subject, account_key, email, linked_at)
        VALUES (\(bind: identity.provider), \(bind: identity.subject), \(bind: identity.accountKey), \(bind: identity.email), \(bind: identity.linkedAt))
        ON CONFLICT (provider, subject) DO NOTHING
        """
    }
}
