import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Whole HTTP exchanges of the compatibility endpoints, byte for byte: status line, the headers
/// clients depend on, and the exact body (prefix, keys, value types). Volatile values are replaced
/// with placeholders: `<key>`, `<token>`, `<objectId>`, `<time3>` (a `.SSS'Z'` time), `<time6>`.
@Suite struct ExchangeSnapshotTests {
    static let shownHeaders: [HTTPField.Name] = [.contentType, .setCookie, .location, .allow, .retryAfter]

    /// The response as text, with `replacements` and the volatile patterns masked.
    static func render(_ response: TestResponse, _ replacements: [String: String] = [:]) -> String {
        var lines = ["HTTP \(response.status.code)"]
        for name in shownHeaders {
            for value in response.headers[values: name] { lines.append("\(name.rawName): \(value)") }
        }
        lines.append("")
        lines.append(response.text)
        var text = lines.joined(separator: "\n")
        for (value, placeholder) in replacements.sorted(by: { $0.key.count > $1.key.count }) {
            text = text.replacingOccurrences(of: value, with: placeholder)
        }
        text = text.replacing(/[0-9a-f]{64}/, with: "<token>")
        text = text.replacing(/[0-9a-f]{32}/, with: "<nonce>")
        text = text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/, with: "<time6>")
        text = text.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, with: "<time3>")
        return text
    }

    @Test func login() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(email: "ada@example.com")
            let response = try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "ada@example.com", "password": "correct horse"}}"#)
            #expect(Self.render(response, [student.key: "<key>"]) == """
                HTTP 200
                Content-Type: application/json; charset=utf-8
                Set-Cookie: otm_session=<token>; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax
                Set-Cookie: XSRF-TOKEN=<token>; Path=/; Max-Age=2592000; SameSite=Lax
                Set-Cookie: otm_device=<key>.<nonce>.<token>; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax

                )]}'
                {"account":{"key":"<key>","registered":true},"session":{"expiration":"<time6>","id":"<token>"}}
                """)
        }
    }

    @Test func failedLogin() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.post, "/api/session", body: #"{"udacity": {"username": "nobody@example.com", "password": "x"}}"#)
            #expect(Self.render(response) == """
                HTTP 403
                Content-Type: application/json; charset=utf-8

                )]}'
                {"error":"Account not found or invalid credentials.","status":403}
                """)
        }
    }

    @Test func logout() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let response = try await server.send(.delete, "/v1/session", headers: student.cookieHeader)
            #expect(Self.render(response) == """
                HTTP 200
                Content-Type: application/json; charset=utf-8
                Set-Cookie: otm_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax
                Set-Cookie: XSRF-TOKEN=; Path=/; Max-Age=0; SameSite=Lax

                )]}'
                {"session":{"expiration":"<time6>","id":"<token>"}}
                """)
        }
    }

    @Test func legacyUserData() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(email: "ada@example.com", first: "Ada", last: "Lovelace")
            let response = try await server.send(.get, "/api/users/\(student.key)", headers: student.cookieHeader)
            #expect(Self.render(response, [student.key: "<key>"]) == """
                HTTP 200
                Content-Type: application/json; charset=utf-8

                )]}'
                {"user":{"_affiliate_profiles":[],"_badges":[],"_cohort_keys":[],"_enrollments":[],"_has_password":true,"_image_url":"","_memberships":[],"_principals":[],"_registered":true,"email":{"_verification_code_sent":false,"_verified":false,"address":"ada@example.com"},"employer_sharing":false,"external_accounts":[],"first_name":"Ada","guard":{},"key":"<key>","last_name":"Lovelace","nickname":"Ada Lovelace","social_accounts":[],"tags":[]}}
                """)
        }
    }

    @Test func createReadAndListOnEveryFamily() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(first: "Ada", last: "Lovelace")
            let body = #"{"mapString": "London, UK ", "mediaURL": "https://en.wikipedia.org/wiki/Ada_Lovelace", "latitude": 51.5072, "longitude": -0.1276}"#
            let v1 = try await server.send(.post, "/v1/StudentLocation", body: body, headers: student.cookieHeader)
            let id = try JSONDecoder.strict.decode(StrictCreated.self, from: v1.data).objectId
            let masks = [student.key: "<key>", id: "<objectId>"]
            #expect(Self.render(v1, masks) == """
                HTTP 200
                Content-Type: application/json; charset=utf-8

                {"createdAt":"<time3>","objectId":"<objectId>"}
                """)
            let parse = try await server.send(.post, "/parse/classes/StudentLocation", body: body, headers: student.cookieHeader)
            #expect(Self.render(parse, masks) == """
                HTTP 201
                Content-Type: application/json; charset=utf-8
                Location: /parse/classes/StudentLocation/<objectId>

                {"createdAt":"<time3>","objectId":"<objectId>"}
                """)
            let record = #"{"createdAt":"<time3>","firstName":"Ada","lastName":"Lovelace","latitude":51.5072,"longitude":-0.1276,"mapString":"London, UK ","mediaURL":"https://en.wikipedia.org/wiki/Ada_Lovelace","objectId":"<objectId>","uniqueKey":"<key>","updatedAt":"<time3>"}"#
            let r1 = try await server.send(.get, "/1/classes/StudentLocation/\(id)")
            #expect(Self.render(r1, masks) == """
                HTTP 200
                Content-Type: application/json; charset=utf-8

                \(record)
                """)
            let r2 = try await server.send(.get, "/v1/StudentLocation?count=1")
            #expect(Self.render(r2, masks) == """
                HTTP 200
                Content-Type: application/json; charset=utf-8

                {"count":1,"results":[\(record)]}
                """)
        }
    }

    @Test func errorsInEachFamilysShape() async throws {
        try await TestServer.run { server in
            let r3 = try await server.send(.get, "/v1/StudentLocation?limit=abc")
            #expect(Self.render(r3) == """
                HTTP 400
                Content-Type: application/json; charset=utf-8

                {"code":102,"error":"limit must be a whole number of 0 or more.","parameter":"limit","status":400}
                """)
            let r4 = try await server.send(.get, "/parse/classes/StudentLocation?limit=abc")
            #expect(Self.render(r4) == """
                HTTP 400
                Content-Type: application/json; charset=utf-8

                {"code":102,"error":"limit must be a whole number of 0 or more."}
                """)
            let r5 = try await server.send(.put, "/1/classes/StudentLocation")
            #expect(Self.render(r5) == """
                HTTP 405
                Content-Type: application/json; charset=utf-8
                Allow: GET, HEAD, POST

                {"code":119,"error":"Method not allowed; use GET, HEAD, POST."}
                """)
            let r6 = try await server.send(.post, "/v1/StudentLocation", body: "{}")
            #expect(Self.render(r6) == """
                HTTP 401
                Content-Type: application/json; charset=utf-8

                {"code":209,"error":"You must be logged in: POST /v1/session first, then send the session cookie or an Authorization: Bearer header.","status":401}
                """)
        }
    }
}
