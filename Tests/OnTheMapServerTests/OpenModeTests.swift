import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// Legacy `open` mode (section 5.5).
@Suite struct OpenModeTests {
    let body = #"{"uniqueKey": "1234", "firstName": "Legacy", "lastName": "Client", "mapString": "Austin, TX", "mediaURL": "https://udacity.com", "latitude": 30.2, "longitude": -97.7}"#

    @Test func anonymousWritesAreStoredAsSent() async throws {
        try await TestServer.run(configure: { $0.writeMode = .open }) { server in
            let first = try await server.send(.post, "/parse/classes/StudentLocation", body: body)
            #expect(first.status == .created)
            let id = try JSONDecoder.strict.decode(StrictCreated.self, from: first.data).objectId
            let record = try JSONDecoder.strict.decode(StrictLocation.self, from: try await server.send(.get, "/v1/StudentLocation/\(id)").data)
            #expect(record.uniqueKey == "1234" && record.firstName == "Legacy" && record.lastName == "Client")
            #expect(try await server.send(.put, "/v1/StudentLocation/\(id)", body: #"{"firstName": "Changed"}"#).status == .ok)
            #expect(try await server.send(.delete, "/v1/StudentLocation/\(id)").status == .ok)
        }
    }

    @Test func anonymousWritesAreStillValidated() async throws {
        try await TestServer.run(configure: { $0.writeMode = .open }) { server in
            let response = try await server.send(.post, "/v1/StudentLocation", body: body.replacingOccurrences(of: "https://udacity.com", with: "javascript:alert(1)"))
            #expect(response.status == .badRequest)
        }
    }

    @Test func anonymousWritesAreRateLimitedPerAddress() async throws {
        try await TestServer.run(configure: { $0.writeMode = .open; $0.openWritesPerMinute = 3 }) { server in
            let address: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.9"]
            for _ in 0..<3 { #expect(try await server.send(.post, "/v1/StudentLocation", body: body, headers: address).status == .ok) }
            let limited = try await server.send(.post, "/v1/StudentLocation", body: body, headers: address)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] != nil)
            let other = try await server.send(.post, "/v1/StudentLocation", body: body, headers: [.init("X-Forwarded-For")!: "203.0.113.10"])
            #expect(other.status == .ok)
        }
    }

    @Test func accountPinsStayProtectedInOpenMode() async throws {
        try await TestServer.run(configure: { $0.writeMode = .open }) { server in
            let owner = try await server.signUp()
            let id = try await server.postLocation(as: owner)
            #expect(try await server.send(.delete, "/v1/StudentLocation/\(id)").status == .unauthorized)
            let other = try await server.signUp()
            #expect(try await server.send(.delete, "/v1/StudentLocation/\(id)", headers: other.bearerHeader).status == .forbidden)
        }
    }
}
