import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Bad input: every malformed request gets a 4xx JSON error in its family's shape and
/// changes nothing in the store.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let method: HTTPRequest.Method
        let path: String
        let body: String?
        let status: Int
        var testDescription: String { name }

        init(name: String, method: HTTPRequest.Method, path: String, body: String? = nil, status: Int) {
            self.name = name
            self.method = method
            self.path = path
            self.body = body
            self.status = status
        }
    }

    static let valid = #"{"mapString": "Quito", "mediaURL": "https://example.com", "latitude": -0.18, "longitude": -78.47}"#

    /// `valid` with one key replaced by a raw JSON value.
    static func with(_ key: String, _ json: String) -> String {
        var object = try! JSONSerialization.jsonObject(with: Data(valid.utf8)) as! [String: Any]
        object[key] = nil
        let rest = String(data: try! JSONSerialization.data(withJSONObject: object), encoding: .utf8)!
        return "{\"\(key)\": \(json), " + rest.dropFirst()
    }

    static let megabyte = String(repeating: "a", count: 1_048_576)

    static let cases: [Case] = [
        Case(name: "not JSON", method: .post, path: "/v1/StudentLocation", body: "mapString=Quito", status: 400),
        Case(name: "empty body", method: .post, path: "/v1/StudentLocation", body: nil, status: 400),
        Case(name: "JSON array", method: .post, path: "/v1/StudentLocation", body: "[1, 2]", status: 400),
        Case(name: "JSON string", method: .post, path: "/parse/classes/StudentLocation", body: "\"hello\"", status: 400),
        Case(name: "truncated JSON", method: .post, path: "/1/classes/StudentLocation", body: "{\"mapString\": \"Qu", status: 400),
        Case(name: "latitude as string", method: .post, path: "/v1/StudentLocation", body: with("latitude", "\"-0.18\""), status: 400),
        Case(name: "mapString as number", method: .post, path: "/v1/StudentLocation", body: with("mapString", "12"), status: 400),
        Case(name: "mediaURL as object", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", "{}"), status: 400),
        Case(name: "missing mediaURL", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", "null"), status: 400),
        Case(name: "missing latitude", method: .post, path: "/v1/StudentLocation", body: #"{"mapString": "Quito", "mediaURL": "https://e.com", "longitude": 1}"#, status: 400),
        Case(name: "1 MB string", method: .post, path: "/v1/StudentLocation", body: with("mapString", "\"\(megabyte)\""), status: 413),
        Case(name: "body over 64 KiB", method: .post, path: "/parse/classes/StudentLocation", body: String(repeating: " ", count: 65_537) + valid, status: 413),
        Case(name: "mapString of 201 characters", method: .post, path: "/v1/StudentLocation", body: with("mapString", "\"\(String(repeating: "x", count: 201))\""), status: 400),
        Case(name: "blank mapString", method: .post, path: "/v1/StudentLocation", body: with("mapString", "\"   \""), status: 400),
        Case(name: "latitude 91", method: .post, path: "/v1/StudentLocation", body: with("latitude", "91"), status: 400),
        Case(name: "longitude -180.5", method: .post, path: "/v1/StudentLocation", body: with("longitude", "-180.5"), status: 400),
        Case(name: "latitude 1e400 (infinite)", method: .post, path: "/v1/StudentLocation", body: with("latitude", "1e400"), status: 400),
        Case(name: "latitude NaN", method: .post, path: "/v1/StudentLocation", body: with("latitude", "NaN"), status: 400),
        Case(name: "javascript: link", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", #""javascript:alert(1)""#), status: 400),
        Case(name: "data: link", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", #""data:text/html,<script>alert(1)</script>""#), status: 400),
        Case(name: "file: link", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", #""file:///etc/passwd""#), status: 400),
        Case(name: "ftp link", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", #""ftp://example.com""#), status: 400),
        Case(name: "link without host", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", #""https://""#), status: 400),
        Case(name: "link with spaces", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", #""https://exa mple.com""#), status: 400),
        Case(name: "link over 2048", method: .post, path: "/v1/StudentLocation", body: with("mediaURL", "\"https://e.com/\(String(repeating: "a", count: 2040))\""), status: 400),
        Case(name: "update with bad link", method: .put, path: "/v1/StudentLocation/{id}", body: #"{"mediaURL": "javascript:void(0)"}"#, status: 400),
        Case(name: "update not JSON", method: .put, path: "/parse/classes/StudentLocation/{id}", body: "nope", status: 400),
        Case(name: "update unknown id", method: .put, path: "/v1/StudentLocation/ZZZZZZZZZZ", body: valid, status: 404),
        Case(name: "PUT to collection", method: .put, path: "/v1/StudentLocation", body: valid, status: 405),
        Case(name: "DELETE collection", method: .delete, path: "/parse/classes/StudentLocation", body: nil, status: 405),
        Case(name: "PATCH a location", method: .patch, path: "/v1/StudentLocation/{id}", body: valid, status: 405),
        Case(name: "bad where", method: .get, path: "/parse/classes/StudentLocation?where=%7Bnot%20json", status: 400),
        Case(name: "where not an object", method: .get, path: "/parse/classes/StudentLocation?where=%5B1%5D", status: 400),
        Case(name: "where with unknown operator", method: .get, path: "/parse/classes/StudentLocation?where=%7B%22uniqueKey%22%3A%7B%22%24regex%22%3A%22.%2A%22%7D%7D", status: 400),
        Case(name: "where with bad date", method: .get, path: "/v1/StudentLocation?where=%7B%22createdAt%22%3A%7B%22%24gt%22%3A%22yesterday%22%7D%7D", status: 400),
        Case(name: "where comparing latitude with text", method: .get, path: "/v1/StudentLocation?where=%7B%22latitude%22%3A%22north%22%7D", status: 400),
        Case(name: "limit=-1", method: .get, path: "/v1/StudentLocation?limit=-1", status: 400),
        Case(name: "limit=abc", method: .get, path: "/parse/classes/StudentLocation?limit=abc", status: 400),
        Case(name: "skip=-5", method: .get, path: "/v1/StudentLocation?skip=-5", status: 400),
        Case(name: "count=maybe", method: .get, path: "/v1/StudentLocation?count=maybe", status: 400),
        Case(name: "unknown route", method: .get, path: "/v2/StudentLocation", status: 404),
        Case(name: "unknown Parse class", method: .get, path: "/parse/classes/Other", status: 404),
        Case(name: "empty user id", method: .get, path: "/v1/users/", status: 404),
        Case(name: "PUT with an empty objectId", method: .put, path: "/v1/StudentLocation/", body: valid, status: 405),
        Case(name: "DELETE with an empty objectId", method: .delete, path: "/parse/classes/StudentLocation/", status: 405),
        Case(name: "sign-up not JSON", method: .post, path: "/v1/accounts", body: "email=a", status: 400),
        Case(name: "sign-up short password", method: .post, path: "/v1/accounts", body: #"{"email": "x@y.co", "password": "short", "firstName": "A", "lastName": "B"}"#, status: 400),
        Case(name: "sign-up bad email", method: .post, path: "/v1/accounts", body: #"{"email": "not-an-email", "password": "long enough", "firstName": "A", "lastName": "B"}"#, status: 400),
        Case(name: "sign-up control character in name", method: .post, path: "/v1/accounts", body: #"{"email": "x@y.co", "password": "long enough", "firstName": "A\u0007", "lastName": "B"}"#, status: 400),
        Case(name: "sign-up empty name", method: .post, path: "/v1/accounts", body: #"{"email": "x@y.co", "password": "long enough", "firstName": " ", "lastName": "B"}"#, status: 400),
        Case(name: "sign-up name over 100", method: .post, path: "/v1/accounts", body: "{\"email\": \"x@y.co\", \"password\": \"long enough\", \"firstName\": \"\(String(repeating: "n", count: 101))\", \"lastName\": \"B\"}", status: 400),
        Case(name: "sign-up password as number", method: .post, path: "/v1/accounts", body: #"{"email": "x@y.co", "password": 12345678, "firstName": "A", "lastName": "B"}"#, status: 400),
        Case(name: "sign-up taken email", method: .post, path: "/v1/accounts", body: #"{"email": "owner@example.com", "password": "long enough", "firstName": "A", "lastName": "B"}"#, status: 409),
        // NUL: PostgreSQL cannot store it nor be asked about it, so it is refused or found nowhere
        // before any database sees it, alike on both engines.
        Case(name: "NUL in mapString", method: .post, path: "/v1/StudentLocation", body: with("mapString", #""Quito\u0000""#), status: 400),
        Case(name: "NUL in update", method: .put, path: "/parse/classes/StudentLocation/{id}", body: #"{"mapString": "a\u0000b"}"#, status: 400),
        Case(name: "NUL in a where value", method: .get, path: "/v1/StudentLocation?where=%7B%22mapString%22%3A%22a%5Cu0000%22%7D", status: 400),
        Case(name: "NUL in uniqueKey", method: .get, path: "/v1/StudentLocation?uniqueKey=a%00b", status: 400),
        Case(name: "NUL in an objectId", method: .get, path: "/parse/classes/StudentLocation/abc%00def", status: 404),
        Case(name: "NUL in an objectId to delete", method: .delete, path: "/v1/StudentLocation/abc%00def", status: 404),
        Case(name: "NUL in a login email", method: .post, path: "/v1/session", body: #"{"udacity": {"username": "owner@example.com\u0000", "password": "correct horse"}}"#, status: 403),
        Case(name: "login with quote in password", method: .post, path: "/v1/session", body: #"{"udacity": {"username": "owner@example.com", "password": "pa"ss"}}"#, status: 400),
    ]

    @Test(arguments: cases)
    func isRefusedInItsFamilysShapeAndChangesNothing(_ testCase: Case) async throws {
        try await TestServer.run { server in
            let owner = try await server.signUp(email: "owner@example.com")
            let id = try await server.postLocation(as: owner)
            let before = try await server.snapshot()
            let path = testCase.path.replacingOccurrences(of: "{id}", with: id)
            let response = try await server.send(testCase.method, path, body: testCase.body, headers: owner.cookieHeader)
            #expect(response.status.code == testCase.status, "\(response.text.prefix(300))")
            let family = PathShape(path: path)
            let json = family == .udacity ? try response.unprefixed() : response.data
            let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            #expect(object["error"] is String)
            switch family {
            case .udacity:
                #expect(object["status"] as? Int == testCase.status)
            case .parse:
                #expect(object["code"] is Int)
                #expect(object["status"] == nil)
            case .v1:
                #expect(object["status"] as? Int == testCase.status)
                #expect(object["code"] is Int)
            }
            #expect(try await server.snapshot() == before)
        }
    }

    enum PathShape {
        case udacity, parse, v1

        init(path: String) {
            if path.hasPrefix("/v1/session") || path.hasPrefix("/v1/users") || path.hasPrefix("/api/") {
                self = .udacity
            } else if path.hasPrefix("/parse/") || path.hasPrefix("/1/") {
                self = .parse
            } else {
                self = .v1
            }
        }
    }

    @Test func errorsNeverLeakInternals() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.get, "/parse/classes/StudentLocation?where=%7B%22uniqueKey%22%3A%7B%22%24in%22%3A5%7D%7D")
            #expect(response.status == .badRequest)
            #expect(!response.text.lowercased().contains("sql"))
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
        }
    }
}
