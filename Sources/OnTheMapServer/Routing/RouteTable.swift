import NIOConcurrencyHelpers

/// Every operation the route groups registered, at each mount: what the agreement test holds
/// `openapi.json` and `APIOperation` to, in both directions.
final class RouteTable: Sendable {
    private let registered = NIOLockedValueBox<[(prefix: String, operation: APIOperation)]>([])

    /// Records `operation` at `mount`; true when it is the first registered on its path there.
    func add(_ operation: APIOperation, at mount: CourseMount) -> Bool {
        registered.withLockedValue { registered in
            let here = registered.filter { $0.prefix == mount.prefix }.map(\.operation)
            precondition(!here.contains(operation), "\(operation) is registered twice at '\(mount.prefix)'")
            registered.append((mount.prefix, operation))
            return !here.contains { $0.path == operation.path }
        }
    }

    /// The operations registered at `mount` (the root unless said).
    func operations(at mount: CourseMount = .root) -> [APIOperation] {
        registered.withLockedValue { $0.filter { $0.prefix == mount.prefix }.map(\.operation) }
    }
}
