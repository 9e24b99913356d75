import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// The logged-in account behind a request.
struct Caller: Sendable {
    let account: Account
    /// Their role in the request's course (nil: not a member), read with the session.
    var courseRole: CourseRole? = nil
    /// The raw session token (needed to answer logout with the session id).
    let token: String
    /// True when the token came from the cookie rather than `Authorization: Bearer`: only then can
    /// a browser have attached it on another site's behalf, so only then do cross-site rules apply.
    let viaCookie: Bool
    /// When the session's holder last proved they know the password: its login, or typing it
    /// again (microseconds).
    var passwordProvedAt: Int64 = 0

    /// Whether the password was proved within `seconds` of `now` (microseconds).
    func provedPassword(within seconds: Int64, of now: Int64) -> Bool {
        passwordProvedAt >= now - seconds * 1_000_000
    }
}

/// The session token a request carries: `Authorization: Bearer <token>` first, else the cookie.
struct SessionCredential: Sendable, Equatable {
    let token: String
    let viaCookie: Bool

    init?(of request: Request) {
        if let token = Self.bearerToken(request) {
            self.token = token
            self.viaCookie = false
        } else if let token = SessionCookies.sessionToken(in: request) {
            self.token = token
            self.viaCookie = true
        } else {
            return nil
        }
    }

    private static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

/// Finds the account behind a session token. A request's caller is looked up through its context
/// (`AppRequestContext.caller()`), only by the routes that need it, so the hot list read costs no
/// database query. A session unused for `idleSeconds` has ended; using it moves that bound on,
/// written at most once per `idleRefreshSeconds` so that a busy student costs a write an hour,
/// not one per request.
struct SessionAuthenticator: Sendable {
    let sessions: any SessionStore
    let clock: WallClock
    var idleSeconds: Int64 = 14 * 86_400
    var idleRefreshSeconds: Int64 = 3600

    /// The account holding session `token`, if it is live, with its role in `course`.
    func caller(token: String, viaCookie: Bool, in course: CourseID) async throws -> Caller? {
        let now = clock.nowMicros()
        let tokenHash = SessionToken.hash(token)
        guard let session = try await sessions.session(tokenHash: tokenHash, now: now, in: course), !session.account.isDisabled else {
            return nil
        }
        let bound = now + idleSeconds * 1_000_000
        if (session.idleExpiresAt ?? 0) < bound - idleRefreshSeconds * 1_000_000 {
            // The request goes on if this fails: the session was live, and the next use tries again.
            try? await sessions.extendSessionIdle(tokenHash: tokenHash, until: bound)
        }
        return Caller(
            account: session.account, courseRole: session.courseRole, token: token, viaCookie: viaCookie, passwordProvedAt: max(session.createdAt, session.confirmedAt ?? 0))
    }
}
