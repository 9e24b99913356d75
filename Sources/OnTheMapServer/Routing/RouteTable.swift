import NIOConcurrencyHelpers

/// Every operation the route groups registered: what the agreement test holds `openapi.json` and
/// `APIOperation` to, in both directions.
final class RouteTable: Sendable {
    private let registered = NIOLockedValueBox<[APIOperation]>([])

    /// Records `operation`; true when it is the first registered on its path.
    func add(_ operation: APIOperation) -> Bool {
        registered.withLockedValue { operations in
            precondition(!operations.contains(operation), "\(operation) is registered twice")
            defer { operations.append(operation) }
            return !operations.contains { $0.path == operation.path }
        }
    }

    var operations: [APIOperation] { registered.withLockedValue { $0 } }
}
