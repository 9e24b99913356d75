import Foundation
import HTTPTypes
@testable import OnTheMapServer
import OnTheMapStore
import Testing

/// Learning platforms registered from the admin area (issue 43, "Tool registration"): the same
/// rules as `onthemap lti`, for admins only, each change in the audit log.
@Suite struct AdminLTITests {
    static let platform = #"""
        {"name": "Moodle", "issuer": "https://moodle.example.edu", "clientId": "abc123", "deploymentIds": ["1"],
         "authorizationUrl": "https://moodle.example.edu/mod/lti/auth.php", "jwksUrl": "https://moodle.example.edu/mod/lti/certs.php",
         "tokenUrl": "https://moodle.example.edu/mod/lti/token.php"}
        """#

    @Test func anAdminRegistersAPlatformAndEveryChangeIsAudited() async throws {
        try await TestServer.run(configure: { $0.publicURL = PublicURL("https://map.example.org") }) { server in
            let admin = try await server.signUp(email: "ada@example.com")
            try await server.makeAdmin(admin)
            let student = try await server.signUp()

            let overview = try await server.send(.get, "/v1/admin/lti", headers: admin.bearerHeader)
            #expect(overview.status == .ok)
            let values = try #require(try overview.object()["toolValues"] as? [[String: String]])
            #expect(values.contains { $0["value"] == "https://map.example.org/lti/login" })
            #expect((try overview.object()["platforms"] as? [Any])?.isEmpty == true)

            // Students may not; a bad value is refused by name, and nothing is made.
            #expect(try await server.send(.post, "/v1/admin/lti/platforms", body: Self.platform, headers: student.bearerHeader).status == .forbidden)
            let plainHTTP = Self.platform.replacingOccurrences(of: "https://moodle.example.edu/mod/lti/certs.php", with: "http://moodle.example.edu/certs")
            let refused = try await server.send(.post, "/v1/admin/lti/platforms", body: plainHTTP, headers: admin.bearerHeader)
            #expect(refused.status == .badRequest)
            #expect(try refused.object()["parameter"] as? String == "jwksUrl")
            #expect(try await server.store.platforms().isEmpty)

            let added = try await server.send(.post, "/v1/admin/lti/platforms", body: Self.platform, headers: admin.bearerHeader)
            #expect(added.status == .created)
            let id = try #require(try added.object()["id"] as? Int)
            let again = try await server.send(.post, "/v1/admin/lti/platforms", body: Self.platform, headers: admin.bearerHeader)
            #expect(again.status == .badRequest, "registered once per issuer and client id")

            let deployment = try await server.send(
                .post, "/v1/admin/lti/platforms/\(id)/deployments", body: #"{"deploymentId": "2"}"#, headers: admin.bearerHeader)
            #expect(deployment.status == .ok)
            #expect(try deployment.object()["deploymentIds"] as? [String] == ["1", "2"])

            let before = try await server.send(.get, "/lti/jwks")
            let rotated = try await server.send(.post, "/v1/admin/lti/keys", headers: admin.bearerHeader)
            #expect(rotated.status == .created)
            let kid = try #require(try rotated.object()["kid"] as? String)
            let after = try await server.send(.get, "/lti/jwks")
            #expect(after.text.contains(kid) && !before.text.contains(kid))

            #expect(try await server.send(.delete, "/v1/admin/lti/platforms/\(id)", headers: admin.bearerHeader).status == .ok)
            #expect(try await server.send(.delete, "/v1/admin/lti/platforms/\(id)", headers: admin.bearerHeader).status == .notFound)
            #expect(try await server.store.platforms().isEmpty)

            let log = try await server.send(.get, "/v1/admin/audit", headers: admin.bearerHeader)
            let actions = try #require(try log.object()["results"] as? [[String: Any]]).compactMap { $0["action"] as? String }
            #expect(actions.filter { $0.contains("lti") } == ["remove-lti-platform", "rotate-lti-key", "add-lti-deployment", "add-lti-platform"])
        }
    }
}
