import Crypto
import Hummingbird
import OnTheMapModel

/// The two cookies set at login: the HttpOnly session cookie, which native clients' shared URL
/// session sends back on every later request, and `XSRF-TOKEN`, readable by scripts so that a browser
/// client can echo it in `X-XSRF-TOKEN` (and which one client force-unwraps at logout).
struct SessionCookies {
    static let sessionName = "otm_session"
    static let xsrfName = "XSRF-TOKEN"

    let secure: Bool

    /// `Set-Cookie` values for a new session of `lifetime` seconds.
    func issue(sessionToken: String, lifetime: Int64) -> [String] {
        [
            line(Self.sessionName, sessionToken, maxAge: lifetime, httpOnly: true),
            line(Self.xsrfName, Identifiers.token(), maxAge: lifetime, httpOnly: false),
        ]
    }

    /// `Set-Cookie` values that make the browser forget both.
    func clear() -> [String] {
        [line(Self.sessionName, "", maxAge: 0, httpOnly: true), line(Self.xsrfName, "", maxAge: 0, httpOnly: false)]
    }

    /// The cookie binding a sign-in at a provider to the browser that started it: only sent back
    /// to `/v1/oidc/`, gone after ten minutes (the login's own lifetime), unreadable to scripts.
    static let pendingSignInName = "otm_oidc_state"

    func pendingSignIn(state: String) -> String {
        line(Self.pendingSignInName, state, maxAge: SignInService.pendingLifetimeMillis / 1000, httpOnly: true, path: "/v1/oidc/")
    }

    func clearPendingSignIn() -> String {
        line(Self.pendingSignInName, "", maxAge: 0, httpOnly: true, path: "/v1/oidc/")
    }

    /// Written by hand so the attributes always come in one order: identical answers, identical bytes.
    /// Values are hex tokens, which need no quoting. No `Domain`: the cookies are host-only.
    private func line(_ name: String, _ value: String, maxAge: Int64, httpOnly: Bool, path: String = "/") -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge)" + (httpOnly ? "; HttpOnly" : "") + "; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}

/// Session tokens are stored only as their SHA-256, so a leaked database opens no sessions.
enum SessionToken {
    static func hash(_ token: String) -> String {
        Identifiers.hex(SHA256.hash(data: Array(token.utf8)))
    }
}

extension Response {
    mutating func setCookies(_ cookies: [String]) {
        for cookie in cookies { headers[values: .setCookie].append(cookie) }
    }
}
