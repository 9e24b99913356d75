import Hummingbird
import OnTheMapModel

/// One path family's routes (docs/API.md, "Path families and error shapes"): a router group whose middleware tells
/// the request its family, which the error middleware, the metrics and the log read, and for the
/// Udacity family puts the prefix before every answer. Operations register by name
/// (`APIOperation`), which brings their method, path, cross-site check and who may call them.
struct FamilyGroup {
    let family: PathFamily
    /// Where the group is mounted (`CourseMount`); its operations' paths are below it.
    private let mount: CourseMount
    private let basePath: String
    private let adminsOnly: Bool
    private let table: RouteTable
    private let rules: RouteRules
    private let open: RouterGroup<AppRequestContext>

    /// The family's group under `path` (its operations' paths all start there) at `mount`, behind
    /// the admin guard when `adminsOnly`, its operations checked by `rules` and recorded in `table`.
    init(
        _ family: PathFamily, on router: Router<AppRequestContext>, mount: CourseMount = .root, path: String = "", adminsOnly: Bool = false,
        rules: RouteRules, table: RouteTable
    ) {
        self.family = family
        self.mount = mount
        self.basePath = path
        self.adminsOnly = adminsOnly
        self.table = table
        self.rules = rules
        open = router.group(RouterPath(mount.prefix + path)).add(middleware: FamilyMiddleware(family: family))
        // After the family's middleware, so that an unknown course is refused in the family's shape.
        if let directory = mount.directory { open.add(middleware: CourseMiddleware(directory: directory)) }
        if adminsOnly { open.add(middleware: AdminGuard()) }
    }

    /// Serves `operation` with `handler`, behind its cross-site check, for an operation that
    /// needs a session a 401 without one, and for one a course serves its access check. The first
    /// operation on a path also answers every other common method there with 405 and an `Allow`
    /// header naming the path's operations, so a wrong method never looks like a missing resource.
    func add(_ operation: APIOperation, _ handler: @escaping Handler) {
        let path = relative(operation.path)
        assert(PathFamily.claiming(operation.path) == family, "\(operation.path) is not a path of the \(family) family")
        assert((operation.access == .admin) == adminsOnly, "\(operation) must be registered in the admin area's group, and only it")
        var group = open
        if let check = operation.crossSite { group = group.group().add(middleware: CrossSiteMiddleware(rule: rules.crossSite, check: check)) }
        if operation.access == .session { group = group.group().add(middleware: SessionRequired()) }
        if let action = operation.courseAction {
            group = group.group().add(middleware: CourseAccessMiddleware(access: rules.courses, action: action, directory: mount.directory))
        }
        group.on(RouterPath(path), method: operation.method, use: handler)
        if table.add(operation, at: mount) {
            let methods = APIOperation.allCases.filter { $0.path == operation.path }.map(\.method)
            refuseOtherMethods(on: path, than: methods)
        }
    }

    /// Serves a file of the web client (no operation of the API) on `path` with `handler`. A `path`
    /// with a parameter that names only some files says which with `exists`: to the others every
    /// method is 404.
    func file(_ path: String, exists: @escaping @Sendable (Request, AppRequestContext) -> Bool, _ handler: @escaping Handler) {
        open.on(RouterPath(path), method: .get, use: handler)
        refuseOtherMethods(on: path, than: [.get], exists: exists)
    }

    private func refuseOtherMethods(
        on path: String, than registered: [HTTPRequest.Method], exists: (@Sendable (Request, AppRequestContext) -> Bool)? = nil
    ) {
        var allowedMethods = registered.map(\.rawValue)
        if registered.contains(.get) { allowedMethods.insert("HEAD", at: 1) }
        let allowed = allowedMethods
        let others: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .options] + (registered.contains(.get) ? [] : [.head])
        for method in others where !registered.contains(method) {
            open.on(RouterPath(path), method: method) { request, context -> Response in
                if let exists, !exists(request, context) { throw HTTPError(.notFound) }
                throw APIError.methodNotAllowed(allowed: allowed)
            }
        }
    }

    /// `path` below the group's base path.
    private func relative(_ path: String) -> String {
        precondition(path.hasPrefix(basePath), "\(path) is outside the group at \(basePath)")
        return String(path.dropFirst(basePath.count))
    }
}

/// What the route groups check in front of their operations: the cross-site rule and who may use
/// a course.
struct RouteRules: Sendable {
    let crossSite: CrossSiteGuard
    let courses: CourseAccess
}

/// A route handler: every handler in this server builds its `Response` itself.
typealias Handler = @Sendable (Request, AppRequestContext) async throws -> Response

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

/// In front of an operation that needs a session: 401 without one.
struct SessionRequired: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        _ = try await context.requireCaller()
        return try await next(request, context)
    }
}

extension AppRequestContext {
    /// The family of the route group that took the request, or of its path when none did.
    func family(of request: Request) -> PathFamily {
        facts.family ?? PathFamily.claiming(request.uri.path)
    }
}
