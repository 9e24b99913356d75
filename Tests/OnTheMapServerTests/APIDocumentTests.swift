import Foundation
@testable import OnTheMapServer
import Testing

/// The OpenAPI document is the API's one description. Every operation a route
/// group serves is in it, and every operation in it is served, in every family (the Udacity
/// session and users, the three location families, native, admin, sign-in).
@Suite struct APIDocumentTests {
    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    @Test func theRoutesAndTheDocumentDescribeTheSameOperations() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.get, "/openapi.json")
            let paths = try #require(try response.object()["paths"] as? [String: [String: Any]])
            let documented = Set(paths.flatMap { path, item in
                item.keys.filter(Self.methods.contains).map { RouteTable.Operation(method: $0, path: path) }
            })
            let served = server.routes.operations
            #expect(served.count > 30, "the route table is filled")
            for missing in served.subtracting(documented).sorted(by: { $0.description < $1.description }) {
                Issue.record("\(missing) is served but not in openapi.json")
            }
            for extra in documented.subtracting(served).sorted(by: { $0.description < $1.description }) {
                Issue.record("\(extra) is in openapi.json but no route serves it")
            }
        }
    }
}
