import Crypto
import Hummingbird
import OnTheMapModel

/// The cookies set at login: the HttpOnly session cookie, which native clients' shared URL session
/// sends back on every later request; `XSRF-TOKEN`, readable by scripts so that a browser client can
/// echo it in `X-XSRF-TOKEN` (and which one client force-unwraps at logout, so its name never
/// changes); and the device cookie (`DeviceCookie`).
///
/// Served over https (`--public-url https://…`), the others take the names browsers guard: a
/// `__Host-` cookie must be `Secure`, host-only and `Path=/`, so that no other host (a sibling
/// subdomain) and no plain-http page can set or shadow it; the sign-in cookie, which is scoped
/// to `/v1/oidc/`, takes `__Secure-`. Requests are read under either name, so that a student
/// logged in before the server moved to https stays logged in.
struct SessionCookies {
    static let plainSessionName = "otm_session"
    static let xsrfName = "XSRF-TOKEN"
    static let plainPendingSignInName = "otm_oidc_state"
    static let plainDeviceName = "otm_device"

    let secure: Bool

    var sessionName: String { secure ? "__Host-" + Self.plainSessionName : Self.plainSessionName }
    var pendingSignInName: String { secure ? "__Secure-" + Self.plainPendingSignInName : Self.plainPendingSignInName }
    var deviceName: String { secure ? "__Host-" + Self.plainDeviceName : Self.plainDeviceName }

    /// The session token a request's cookie carries, under either name.
    static func sessionToken(in request: Request) -> String? { value(of: plainSessionName, in: request, prefix: "__Host-") }
    /// The sign-in state a request's cookie carries, under either name.
    static func pendingSignIn(in request: Request) -> String? { value(of: plainPendingSignInName, in: request, prefix: "__Secure-") }
    /// The device cookie a request carries, under either name.
    static func device(in request: Request) -> String? { value(of: plainDeviceName, in: request, prefix: "__Host-") }

    private static func value(of name: String, in request: Request, prefix: String) -> String? {
        for candidate in [prefix + name, name] {
            if let value = request.cookies[candidate]?.value, !value.isEmpty { return value }
        }
        return nil
    }

    /// `Set-Cookie` values for a new session of `lifetime` seconds.
    func issue(sessionToken: String, lifetime: Int64) -> [String] {
        [
            line(sessionName, sessionToken, maxAge: lifetime, httpOnly: true),
            line(Self.xsrfName, Identifiers.token(), maxAge: lifetime, httpOnly: false),
        ]
    }

    /// `Set-Cookie` values that make the browser forget both (the session under its plain name too).
    func clear() -> [String] {
        var lines = [line(sessionName, "", maxAge: 0, httpOnly: true), line(Self.xsrfName, "", maxAge: 0, httpOnly: false)]
        if secure { lines.append(line(Self.plainSessionName, "", maxAge: 0, httpOnly: true)) }
        return lines
    }

    /// The device cookie after a login with a password: a year, unreadable to scripts.
    func device(_ value: String) -> String {
        line(deviceName, value, maxAge: DeviceCookie.lifetimeSeconds, httpOnly: true)
    }

    /// The cookie binding a sign-in at a provider to the browser that started it: only sent back
    /// to `/v1/oidc/`, gone after ten minutes (the login's own lifetime), unreadable to scripts.
    func pendingSignIn(state: String) -> String {
        line(pendingSignInName, state, maxAge: SignInService.pendingLifetimeMillis / 1000, httpOnly: true, path: "/v1/oidc/")
    }

    func clearPendingSignIn() -> String {
        line(pendingSignInName, "", maxAge: 0, httpOnly: true, path: "/v1/oidc/")
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
