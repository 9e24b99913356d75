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

    /// Cookies for a new session of `lifetime` seconds.
    func issue(sessionToken: String, lifetime: Int64) -> [Cookie] {
        let maxAge = Int(lifetime)
        return [
            Cookie(name: Self.sessionName, value: sessionToken, maxAge: maxAge, path: "/",
                   secure: secure, httpOnly: true, sameSite: .lax),
            Cookie(name: Self.xsrfName, value: Identifiers.token(), maxAge: maxAge, path: "/",
                   secure: secure, httpOnly: false, sameSite: .lax),
        ]
    }

    /// Cookies that make the browser forget both.
    func clear() -> [Cookie] {
        [
            Cookie(name: Self.sessionName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax),
            Cookie(name: Self.xsrfName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: false, sameSite: .lax),
        ]
    }
}

/// Session tokens are stored only as their SHA-256, so a leaked database opens no sessions.
enum SessionToken {
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

extension Response {
    mutating func setCookies(_ cookies: [Cookie]) {
        for cookie in cookies { setCookie(cookie) }
    }
}
