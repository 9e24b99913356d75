import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// docs/API.md, "Path families and error shapes": Parse's error codes, on the Parse families and
/// on v1 (which carries `status` and `code` both).
@Suite struct ParseErrorCodeTests {
    static let valid = #"{"mapString": "Quito", "mediaURL": "https://example.com", "latitude": -0.18, "longitude": -78.47}"#

    @Test(arguments: [
        ("not JSON", "not json", 400, 107),
        ("not an object", "[1]", 400, 107),
        ("wrong type", #"{"mapString": "Quito", "mediaURL": "https://example.com", "latitude": "-0.18", "longitude": 1}"#, 400, 111),
        ("invalid link", #"{"mapString": "Quito", "mediaURL": "javascript:alert(1)", "latitude": 1, "longitude": 1}"#, 400, 142),
        ("missing field", #"{"mapString": "Quito", "latitude": 1, "longitude": 1}"#, 400, 142),
        ("out of range", #"{"mapString": "Quito", "mediaURL": "https://example.com", "latitude": 91, "longitude": 1}"#, 400, 142),
    ])
    func writeErrorsCarryParseCodes(name: String, body: String, status: Int, code: Int) async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            for path in ["/parse/classes/StudentLocation", "/1/classes/StudentLocation", "/v1/StudentLocation"] {
                let response = try await server.send(.post, path, body: body, headers: student.cookieHeader)
                #expect(response.status.code == status, "\(name) on \(path)")
                let object = try response.object()
                #expect(object["code"] as? Int == code, "\(name) on \(path)")
                #expect((object["status"] as? Int) == (path.hasPrefix("/v1/") ? status : nil), "\(name) on \(path)")
            }
        }
    }

    @Test func notFoundForbiddenAndSessionCodes() async throws {
        try await TestServer.run { server in
            let owner = try await server.signUp()
            let other = try await server.signUp()
            let id = try await server.postLocation(as: owner)
            let missing = try await server.send(.get, "/parse/classes/StudentLocation/ZZZZZZZZZZ")
            #expect(missing.status == .notFound)
            #expect(try missing.object()["code"] as? Int == 101)
            let forbidden = try await server.send(.put, "/1/classes/StudentLocation/\(id)", body: Self.valid, headers: other.cookieHeader)
            #expect(forbidden.status == .forbidden)
            #expect(try forbidden.object()["code"] as? Int == 119)
            let anonymous = try await server.send(.post, "/parse/classes/StudentLocation", body: Self.valid)
            #expect(anonymous.status == .unauthorized)
            #expect(try anonymous.object()["code"] as? Int == 209)
        }
    }
}
