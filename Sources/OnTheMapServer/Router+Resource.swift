import Hummingbird
import OnTheMapModel

/// A route handler: every handler in this server builds its `Response` itself.
typealias Handler = @Sendable (Request, AppRequestContext) async throws -> Response

extension RouterMethods where Context == AppRequestContext {
    /// Registers `handlers` on `path` and answers every other common method with 405 and an `Allow`
    /// header, so a wrong method never looks like a missing resource.
    func resource(_ path: RouterPath, _ handlers: [(HTTPRequest.Method, Handler)]) {
        for (method, handler) in handlers {
            on(path, method: method, use: handler)
        }
        let registered = Set(handlers.map(\.0))
        var allowedMethods = handlers.map(\.0.rawValue)
        if registered.contains(.get) { allowedMethods.insert("HEAD", at: 1) }
        let allowed = allowedMethods
        let others: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .options]
            + (registered.contains(.get) ? [] : [.head])
        for method in others where !registered.contains(method) {
            on(path, method: method) { _, _ -> Response in throw APIError.methodNotAllowed(allowed: allowed) }
        }
    }
}
