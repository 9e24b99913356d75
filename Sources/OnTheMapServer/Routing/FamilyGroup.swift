import Hummingbird
import OnTheMapModel

/// One path family's routes (docs/API.md, "Path families and error shapes"): a router group whose middleware
/// tells the request its family, which the error middleware, the metrics and the log read, and for
/// the Udacity family puts the prefix before every answer. A route that changes something names
/// the cross-site check it sits behind, as middleware of a sub-group.
struct FamilyGroup {
    let family: PathFamily
    private let basePath: String
    /// Where the group's operations are recorded; nil for the web client's files, which are no API.
    private let table: RouteTable?
    private let open: RouterGroup<AppRequestContext>
    private let sameOrigin: RouterGroup<AppRequestContext>
    private let sessionWrites: RouterGroup<AppRequestContext>

    /// The family's group under `path` (routes then name paths below it), behind `middleware` (the
    /// admin guard, for one), its operations recorded in `table`.
    init(
        _ family: PathFamily, on router: Router<AppRequestContext>, path: String = "", crossSite: CrossSiteGuard,
        middleware: [any MiddlewareProtocol<Request, Response, AppRequestContext>] = [], table: RouteTable?
    ) {
        self.family = family
        self.basePath = path
        self.table = table
        let group = router.group(RouterPath(path)).add(middleware: FamilyMiddleware(family: family))
        for each in middleware { group.add(middleware: each) }
        open = group
        sameOrigin = group.group().add(middleware: CrossSiteMiddleware(rule: crossSite, check: .sameOrigin))
        sessionWrites = group.group().add(middleware: CrossSiteMiddleware(rule: crossSite, check: .sessionWrites))
    }

    /// Registers `routes` on `path` and answers every other common method with 405 and an `Allow`
    /// header, so a wrong method never looks like a missing resource. A `path` with a parameter that
    /// names only some resources says which with `exists`: to the others every method is 404.
    func resource(_ path: String, _ routes: [Route], exists: (@Sendable (Request, AppRequestContext) -> Bool)? = nil) {
        let fullPath = path.hasPrefix("/") ? basePath + path : basePath + "/" + path
        assert(PathFamily.claiming(fullPath) == family, "\(fullPath) is not a path of the \(family) family")
        for route in routes {
            let group = switch route.check {
            case nil: open
            case .sameOrigin: sameOrigin
            case .sessionWrites: sessionWrites
            }
            group.on(RouterPath(path), method: route.method, use: route.handler)
            table?.add(method: route.method.rawValue, path: fullPath)
        }
        let registered = Set(routes.map(\.method))
        var allowedMethods = routes.map(\.method.rawValue)
        if registered.contains(.get) { allowedMethods.insert("HEAD", at: 1) }
        let allowed = allowedMethods
        let others: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .options]
            + (registered.contains(.get) ? [] : [.head])
        for method in others where !registered.contains(method) {
            open.on(RouterPath(path), method: method) { request, context -> Response in
                if let exists, !exists(request, context) { throw HTTPError(.notFound) }
                throw APIError.methodNotAllowed(allowed: allowed)
            }
        }
    }
}

/// A route handler: every handler in this server builds its `Response` itself.
typealias Handler = @Sendable (Request, AppRequestContext) async throws -> Response

/// One method of a resource, and the cross-site check in front of it, if any.
struct Route {
    let method: HTTPRequest.Method
    let handler: Handler
    let check: CrossSiteMiddleware.Check?

    static func get(_ handler: @escaping Handler) -> Route { Route(method: .get, handler: handler, check: nil) }
    static func post(_ handler: @escaping Handler, _ check: CrossSiteMiddleware.Check?) -> Route { Route(method: .post, handler: handler, check: check) }
    static func put(_ handler: @escaping Handler, _ check: CrossSiteMiddleware.Check?) -> Route { Route(method: .put, handler: handler, check: check) }
    static func patch(_ handler: @escaping Handler, _ check: CrossSiteMiddleware.Check?) -> Route { Route(method: .patch, handler: handler, check: check) }
    static func delete(_ handler: @escaping Handler, _ check: CrossSiteMiddleware.Check?) -> Route { Route(method: .delete, handler: handler, check: check) }
}

/// Names the request's family for everything outside the group, and prefixes the Udacity family's
/// answers (errors get theirs from `ErrorMiddleware`, which builds them in the family's shape).
struct FamilyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let family: PathFamily

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        context.facts.family = family
        var response = try await next(request, context)
        if family.hasPrefix {
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength.map { $0 + UdacityPrefix.bytes.count }) { writer in
                try await writer.write(ByteBuffer(bytes: UdacityPrefix.bytes))
                try await body.write(writer)
            }
        }
        return response
    }
}

extension AppRequestContext {
    /// The family of the route group that took the request, or of its path when none did.
    func family(of request: Request) -> PathFamily {
        facts.family ?? PathFamily.claiming(request.uri.path)
    }
}
