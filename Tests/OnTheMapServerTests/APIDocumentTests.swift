import Foundation
import HTTPTypes
@testable import OnTheMapServer
import Testing

/// The OpenAPI document is the API's one description, and routes are registered by its operation
/// ids (`APIOperation`). Every operation a route group serves is in the document with the same id,
/// method and path, the same rule of who may call it (`security`, the Admin tag) and the same
/// cross-site check (`x-cross-site`); every operation in it is served, in every family.
@Suite struct APIDocumentTests {
    static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// One operation as the document describes it.
    struct Documented: CustomStringConvertible {
        let id: String
        let method: String
        let path: String
        /// The operation's own `security`, or nil where it takes the document's default.
        let security: [[String: Any]]?
        let crossSite: String?
        let tags: [String]
        /// The path item's own `servers`' URLs, or nil where it takes the document's.
        let servers: [String]?
        var description: String { "\(id) (\(method.uppercased()) \(path))" }
    }

    static func documented(_ server: TestServer) async throws -> [Documented] {
        let response = try await server.send(.get, "/openapi.json")
        let paths = try #require(try response.object()["paths"] as? [String: [String: Any]])
        return paths.flatMap { path, item in
            item.compactMap { method, value -> Documented? in
                guard methods.contains(method), let operation = value as? [String: Any] else { return nil }
                return Documented(
                    id: operation["operationId"] as? String ?? "", method: method, path: path,
                    security: operation["security"] as? [[String: Any]], crossSite: operation["x-cross-site"] as? String,
                    tags: operation["tags"] as? [String] ?? [],
                    servers: (item["servers"] as? [[String: Any]])?.compactMap { $0["url"] as? String })
            }
        }
    }

    @Test func everyOperationIsServedOnceByItsIdAndEveryServedOneIsDocumented() async throws {
        try await TestServer.run { server in
            let documented = try await Self.documented(server)
            let served = server.routes.operations()
            #expect(served.count == APIOperation.allCases.count, "every operation of the table is registered once")
            #expect(Set(served.map(\.rawValue)) == Set(documented.map(\.id)))
            #expect(Set(documented.map(\.id)).count == documented.count, "operation ids are unique in the document")
        }
    }

    /// The operations a course serves under `/c/{slug}/` are the ones whose path the document
    /// also serves from `/c/{course}`, and no other.
    @Test func aCoursesPathServesExactlyTheOperationsDocumentedThere() async throws {
        try await TestServer.run { server in
            let documented = try await Self.documented(server)
            let underCourses = documented.filter { $0.servers == ["/", "/c/{course}"] }
            #expect(Set(documented.compactMap(\.servers)) == [["/", "/c/{course}"]], "a path names the document's servers or both of these")
            let mounted = server.routes.operations(at: .named(by: server.courseDirectory))
            #expect(Set(mounted.map(\.rawValue)) == Set(underCourses.map(\.id)))
            #expect(Set(mounted).isSuperset(of: APIOperation.allCases.filter { $0.courseAction != nil }), "what a course checks, it serves")
            #expect(mounted.allSatisfy { server.routes.operations().contains($0) }, "the root serves the default course's")
        }
    }

    @Test func eachOperationHasTheDocumentsMethodPathAccessAndCrossSiteCheck() async throws {
        try await TestServer.run { server in
            for entry in try await Self.documented(server) {
                guard let operation = APIOperation(rawValue: entry.id) else {
                    Issue.record("\(entry) is in openapi.json but not in APIOperation")
                    continue
                }
                #expect(operation.method.rawValue.lowercased() == entry.method, "\(entry): method")
                #expect(Self.template(operation.path) == entry.path, "\(entry): path")
                // A session is required exactly where the document lists no empty alternative.
                let required = entry.security.map { !$0.contains(where: \.isEmpty) } ?? false
                #expect(required == (operation.access != .anyone), "\(entry): security says a session is \(required ? "" : "not ")required")
                #expect(entry.tags.contains("Admin") == (operation.access == .admin), "\(entry): the Admin tag marks the admin area")
                #expect(entry.crossSite == Self.documentedName(operation.crossSite), "\(entry): x-cross-site")
            }
        }
    }

    /// Not the document's word alone: an operation that needs a session answers 401 without one,
    /// before its body is read, and one behind a session-write check refuses a cross-site browser.
    @Test func theAccessAndCrossSiteRulesAreEnforcedAsDeclared() async throws {
        try await TestServer.run { server in
            for operation in APIOperation.allCases where operation.access != .anyone {
                let path = operation.path.split(separator: "/").map { $0.hasPrefix(":") ? "x" : String($0) }.joined(separator: "/")
                let response = try await server.send(operation.method, "/" + path, body: "{}")
                #expect(response.status == .unauthorized, "\(operation) without a session: \(response.status)")
            }
            let student = try await server.signUp()
            for operation in APIOperation.allCases where operation.crossSite == .sessionWrites && operation.access == .session {
                var headers = student.cookieHeader
                headers[.origin] = "https://elsewhere.example"
                let response = try await server.send(operation.method, operation.path, body: "{}", headers: headers)
                #expect(response.status == .forbidden, "\(operation) from another site: \(response.status)")
            }
        }
    }

    /// `{name}` where the router writes `:name`.
    static func template(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            .joined(separator: "/")
    }

    static func documentedName(_ check: CrossSiteMiddleware.Check?) -> String? {
        switch check {
        case nil: nil
        case .sameOrigin: "same-origin"
        case .sessionWrites: "session-writes"
        }
    }
}
