import NIOConcurrencyHelpers

/// Every operation the route groups registered, as OpenAPI writes it (`GET /v1/users/{id}`): what
/// the agreement test holds `openapi.json` to, in both directions.
final class RouteTable: Sendable {
    struct Operation: Hashable, Sendable, CustomStringConvertible {
        /// Lowercased, as OpenAPI's path items key them.
        let method: String
        /// With `{name}` where the router writes `:name`.
        let path: String
        var description: String { "\(method.uppercased()) \(path)" }
    }

    private let described = NIOLockedValueBox<Set<Operation>>([])

    /// Records an operation of the API (the web client's files are not part of it).
    func add(method: String, path: String) {
        let template = path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            .joined(separator: "/")
        described.withLockedValue { _ = $0.insert(Operation(method: method.lowercased(), path: template)) }
    }

    var operations: Set<Operation> { described.withLockedValue { $0 } }
}
