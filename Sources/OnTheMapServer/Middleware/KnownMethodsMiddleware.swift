import HTTPTypes
import Hummingbird
import OnTheMapModel

/// Methods no route here implements (CONNECT, TRACE, any other the parser lets through) are
/// answered 405 in the path family's shape, with the methods this service uses, rather than a 404
/// that suggests the path is wrong. (A method the parser does not know at all gets 501 from the edge.)
struct KnownMethodsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let known: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .options, .patch]
    /// What a 405 for a method no route has names in `Allow`.
    static let allowed = ["GET", "HEAD", "POST", "PUT", "DELETE"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.known.contains(request.method) else {
            return JSONResponse.error(.methodNotAllowed(allowed: Self.allowed), family: context.family(of: request))
        }
        return try await next(request, context)
    }
}
