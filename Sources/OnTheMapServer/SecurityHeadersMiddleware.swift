import HTTPTypes
import Hummingbird

/// Headers every response carries: no MIME sniffing, no referrer leaks, no framing, the
/// Content-Security-Policy the web client runs under, and HSTS when the public URL is https.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let contentSecurityPolicy: String
    /// One year, this host only: subdomains may be other services of the school's that are not ours.
    let strictTransportSecurity: String?

    init(contentSecurityPolicy: String, publicURL: PublicURL?) {
        self.contentSecurityPolicy = contentSecurityPolicy
        self.strictTransportSecurity = publicURL?.isSecure == true ? "max-age=31536000" : nil
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        if let strictTransportSecurity { response.headers[.strictTransportSecurity] = strictTransportSecurity }
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let strictTransportSecurity = Self("Strict-Transport-Security")!
}
