import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
@testable import OnTheMapServer
import Testing

/// The client's address is worked out once per request, by the one proxy rule, in every path family.
@Suite struct RequestFactsTests {
    /// The real rule, counting its calls and remembering each answer by path.
    final class CountingRule: ClientAddressRule {
        let rule = ProxyRule(trustForwardedFor: true)
        let seen = NIOLockedValueBox<[(path: String, address: String)]>([])

        func address(of request: Request, peer: SocketAddress?) -> String {
            let address = rule.address(of: request, peer: peer)
            seen.withLockedValue { $0.append((request.uri.path, address)) }
            return address
        }
    }

    @Test func everyFamilyTakesTheAddressFromTheRuleOnce() async throws {
        let rule = CountingRule()
        try await TestServer.run(addresses: rule) { server in
            let student = try await server.signUp()
            rule.seen.withLockedValue { $0.removeAll() }
            let requests: [(HTTPRequest.Method, String, String?, Bool)] = [
                (.post, "/v1/session", #"{"udacity": {"username": "nobody@example.com", "password": "wrong password"}}"#, false),
                (.post, "/api/session", #"{"udacity": {"username": "nobody@example.com", "password": "wrong password"}}"#, false),
                (.get, "/v1/users/\(student.key)", nil, true),
                (.get, "/v1/StudentLocation?limit=5", nil, false),
                (.post, "/v1/StudentLocation", #"{"mapString": "Oslo", "mediaURL": "https://example.com", "latitude": 59.9, "longitude": 10.7}"#, true),
                (.get, "/parse/classes/StudentLocation?limit=3", nil, false),
                (.get, "/1/classes/StudentLocation?limit=3", nil, false),
                (.get, "/v1/me", nil, true),
                (.get, "/v1/geocode?q=Oslo", nil, false),
                (.get, "/v1/admin/accounts", nil, true),
                (.get, "/v1/oidc/nowhere/start", nil, false),
                (.get, "/", nil, false),
                (.get, "/no/such/path", nil, false),
            ]
            for (index, (method, path, body, asStudent)) in requests.enumerated() {
                var headers: HTTPFields = asStudent ? student.bearerHeader : [:]
                headers[.xForwardedFor] = "203.0.113.\(index + 1), 10.0.0.1"
                try await server.send(method, path, body: body, headers: headers)
            }
            let seen = rule.seen.withLockedValue { $0 }
            #expect(seen.map(\.path) == requests.map { String($0.1.prefix { $0 != "?" }) })
            #expect(seen.map(\.address) == requests.indices.map { "203.0.113.\($0 + 1)" })
        }
    }
}
