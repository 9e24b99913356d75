/// A login session as stored: only a hash of the token the client holds.
public struct SessionRecord: Sendable, Equatable {
    /// SHA-256 of the session token, lowercase hex.
    public var tokenHash: String
    public var accountKey: String
    /// Microseconds since the epoch.
    public var createdAt: Int64
    /// Microseconds since the epoch.
    public var expiresAt: Int64
    /// When the session ends unless it is used before (microseconds); moved on as it is used.
    /// nil for a session made before sessions had an idle bound: its first use sets one.
    public var idleExpiresAt: Int64?

    public init(tokenHash: String, accountKey: String, createdAt: Int64, expiresAt: Int64, idleExpiresAt: Int64? = nil) {
        self.tokenHash = tokenHash
        self.accountKey = accountKey
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.idleExpiresAt = idleExpiresAt
    }
}

/// The Udacity login answer: `{"account": {"registered", "key"}, "session": {"id", "expiration"}}`.
public struct LoginResponse: Encodable, Sendable, Equatable {
    public struct AccountPart: Encodable, Sendable, Equatable {
        public var registered: Bool
        public var key: String
    }

    public var account: AccountPart
    public var session: SessionPart

    public init(accountKey: String, sessionId: String, expiresAtMicros: Int64) {
        account = AccountPart(registered: true, key: accountKey)
        session = SessionPart(id: sessionId, expiresAtMicros: expiresAtMicros)
    }
}

/// `{"id", "expiration"}`: the session object of login and logout answers.
public struct SessionPart: Encodable, Sendable, Equatable {
    public var id: String
    /// `yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'`.
    public var expiration: String

    public init(id: String, expiresAtMicros: Int64) {
        self.id = id
        self.expiration = WireTime.formatMicros(expiresAtMicros)
    }
}

/// The logout answer: exactly `{"session": {…}}`, because one client decodes it as `[String: Session]`.
public struct LogoutResponse: Encodable, Sendable, Equatable {
    public var session: SessionPart

    public init(session: SessionPart) { self.session = session }
}
