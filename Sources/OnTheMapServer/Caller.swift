import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// The logged-in account behind a request.
struct Caller: Sendable {
    let account: Account
    /// The raw session token (needed to answer logout with the session id).
    let token: String
    /// True when the token came from the cookie rather than `Authorization: Bearer`: only then can
    /// a browser have attached it on another site's behalf, so only then do cross-site rules apply.
    let viaCookie: Bool
}

/// Finds the caller of a request from `Authorization: Bearer <token>` or the session cookie. Looked up
/// only by the handlers that need it, so the hot list read costs no database query.
struct SessionAuthenticator: Sendable {
    let sessions: any SessionStore

    /// The caller, or nil when the request carries no live session.
    func caller(of request: Request) async throws -> Caller? {
        if let token = Self.bearerToken(request) {
            return try await caller(token: token, viaCookie: false)
        }
        if let token = request.cookies[SessionCookies.sessionName]?.value, !token.isEmpty {
            return try await caller(token: token, viaCookie: true)
        }
        return nil
    }

    /// The account holding session `token`, if it is live.
    func caller(token: String, viaCookie: Bool) async throws -> Caller? {
        guard let account = try await sessions.account(sessionTokenHash: SessionToken.hash(token), now: WallClock.nowMicros()),
              !account.isDisabled else { return nil }
        return Caller(account: account, token: token, viaCookie: viaCookie)
    }

    private static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
