import Hummingbird
import OnTheMapModel

/// Refuses requests that a browser sends on another site's behalf (docs/API.md, "Who may write"):
/// cookie-authenticated writes, and logins and sign-ups, which another site could otherwise use to
/// log a student's browser in to the other site's account. Native clients send neither `Origin`
/// nor `Sec-Fetch-Site` and are unaffected; bearer-token requests cannot be forged by another site
/// and are exempt from the write check.
struct CrossSiteGuard: Sendable {
    let publicURL: PublicURL?

    func check(_ request: Request, caller: Caller) throws(APIError) {
        guard caller.viaCookie else { return }
        guard try checkOrigin(request) else { return }
        // A browser request must prove it can read our cookie: echo XSRF-TOKEN in X-XSRF-TOKEN.
        guard let cookie = request.cookies[SessionCookies.xsrfName]?.value, !cookie.isEmpty,
              let header = request.headers[.xXSRFToken],
              ConstantTime.equal(cookie, header) else {
            throw .forbidden("Missing or wrong X-XSRF-TOKEN header: echo the XSRF-TOKEN cookie.")
        }
    }

    /// Refuses a browser request from another origin; true when the request came from a browser
    /// (it named its origin or its fetch site), false from a native client.
    @discardableResult
    func checkOrigin(_ request: Request) throws(APIError) -> Bool {
        let origin = request.headers[.origin]
        let fetchSite = request.headers[.secFetchSite]?.lowercased()
        guard origin != nil || fetchSite != nil else { return false }
        if let fetchSite, fetchSite != "same-origin", fetchSite != "none" {
            throw .forbidden("Cross-site request refused.")
        }
        // Our pages say `Referrer-Policy: no-referrer`, under which a browser's form post names its
        // origin `null`; its `Sec-Fetch-Site`, which no page can set, then says where it came from.
        if origin == "null", fetchSite == "same-origin" { return true }
        if let origin, !isSameOrigin(origin, request: request) {
            throw .forbidden("Cross-site request refused.")
        }
        return true
    }

    /// Compares with the configured public origin, or, when none is set, with the Host header.
    private func isSameOrigin(_ origin: String, request: Request) -> Bool {
        guard let parsed = PublicURL(origin) else { return false }
        if let publicURL { return parsed == publicURL }
        guard let host = request.head.authority else { return false }
        return parsed.authority == host.lowercased()
    }
}

/// The cross-site check in front of a route that changes something.
struct CrossSiteMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    enum Check: Sendable {
        /// Logging in, signing up, resetting a password: a browser must be on our own origin.
        case sameOrigin
        /// A write under a session: a cookie-borne one must be same-origin and echo the XSRF token.
        case sessionWrites
    }

    let rule: CrossSiteGuard
    let check: Check

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch check {
        case .sameOrigin: try rule.checkOrigin(request)
        case .sessionWrites: if let caller = try await context.caller() { try rule.check(request, caller: caller) }
        }
        return try await next(request, context)
    }
}
