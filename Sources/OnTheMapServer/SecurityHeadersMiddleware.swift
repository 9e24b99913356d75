import HTTPTypes
import Hummingbird

/// Headers every response carries: no MIME sniffing, no referrer leaks, no framing, and the
/// Content-Security-Policy the web client runs under.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let contentSecurityPolicy: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
}
