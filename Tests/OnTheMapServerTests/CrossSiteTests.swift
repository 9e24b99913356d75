import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// Cross-site protection for cookie-authenticated writes (section 5.5).
@Suite struct CrossSiteTests {
    let body = #"{"mapString": "Oslo", "mediaURL": "https://example.com", "latitude": 59.9, "longitude": 10.7}"#

    func xsrf(_ student: TestSession) -> HTTPFields { [.init("X-XSRF-TOKEN")!: student.cookies["XSRF-TOKEN"]!] }

    @Test func foreignOriginIsRefused() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let before = try await server.snapshot()
            let response = try await server.send(.post, "/v1/StudentLocation", body: body,
                                                 headers: student.cookieHeader + xsrf(student) + [.origin: "https://evil.example"])
            #expect(response.status == .forbidden)
            #expect(try await server.snapshot() == before)
        }
    }

    @Test func crossSiteFetchIsRefused() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let response = try await server.send(.post, "/v1/StudentLocation", body: body,
                                                 headers: student.cookieHeader + xsrf(student) + [.init("Sec-Fetch-Site")!: "cross-site"])
            #expect(response.status == .forbidden)
        }
    }

    @Test func sameOriginBrowserRequestNeedsTheXSRFHeader() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let browser: HTTPFields = [.origin: "http://localhost", .init("Sec-Fetch-Site")!: "same-origin"]
            let without = try await server.send(.post, "/v1/StudentLocation", body: body, headers: student.cookieHeader + browser)
            #expect(without.status == .forbidden)
            let wrong = try await server.send(.post, "/v1/StudentLocation", body: body,
                                              headers: student.cookieHeader + browser + [.init("X-XSRF-TOKEN")!: "not-the-cookie"])
            #expect(wrong.status == .forbidden)
            let with = try await server.send(.post, "/v1/StudentLocation", body: body, headers: student.cookieHeader + browser + xsrf(student))
            #expect(with.status == .ok)
        }
    }

    @Test func originIsComparedWithThePublicURL() async throws {
        try await TestServer.run(configure: { $0.publicURL = PublicURL("https://map.example.org") }) { server in
            let student = try await server.signUp()
            let ok = try await server.send(.post, "/v1/StudentLocation", body: body,
                                           headers: student.cookieHeader + xsrf(student) + [.origin: "https://map.example.org"])
            #expect(ok.status == .ok)
            let http = try await server.send(.post, "/v1/StudentLocation", body: body,
                                             headers: student.cookieHeader + xsrf(student) + [.origin: "http://map.example.org"])
            #expect(http.status == .forbidden)
        }
    }

    @Test func nativeClientsAndBearerTokensAreUnaffected() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            #expect(try await server.send(.post, "/v1/StudentLocation", body: body, headers: student.cookieHeader).status == .ok)
            let bearer = try await server.send(.post, "/v1/StudentLocation", body: body,
                                               headers: student.bearerHeader + [.origin: "https://elsewhere.example"])
            #expect(bearer.status == .ok)
        }
    }

    // Another site cannot log a browser in (or sign it up) to an account of its
    // choosing with a form post; the web app and native apps still can.

    @Test(arguments: ["/v1/session", "/api/session"])
    func aCrossSiteFormPostCannotLogIn(path: String) async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let form = #"{"udacity": {"username": "\#(student.email)", "password": "\#(student.password)"}}"#
            for headers: HTTPFields in [
                [.origin: "https://evil.example", .contentType: "text/plain"],
                [.init("Sec-Fetch-Site")!: "cross-site", .contentType: "text/plain"],
                [.origin: "null", .contentType: "application/x-www-form-urlencoded"],
                // Another site's sandboxed frame: its origin is null, and its fetch site says where it is.
                [.origin: "null", .init("Sec-Fetch-Site")!: "cross-site", .contentType: "application/x-www-form-urlencoded"],
            ] {
                let response = try await server.send(.post, path, body: form, headers: headers)
                #expect(response.status == .forbidden, "\(headers)")
                #expect(response.setCookies["otm_session"] == nil)
                #expect(try JSONSerialization.jsonObject(with: response.unprefixed()) is [String: Any])
            }
            let webApp = try await server.send(.post, path, body: form, headers: [.origin: "http://localhost", .init("Sec-Fetch-Site")!: "same-origin"])
            #expect(webApp.status == .ok)
            // Our own page's form under `Referrer-Policy: no-referrer`: origin null, fetch site ours.
            let ownForm = try await server.send(.post, path, body: form, headers: [.origin: "null", .init("Sec-Fetch-Site")!: "same-origin"])
            #expect(ownForm.status == .ok)
            let native = try await server.send(.post, path, body: form)
            #expect(native.status == .ok)
        }
    }

    @Test func aCrossSiteFormPostCannotSignUp() async throws {
        try await TestServer.run { server in
            let before = try await server.snapshot()
            let form = #"{"email": "planted@example.com", "password": "attacker chosen 1", "firstName": "A", "lastName": "B"}"#
            let response = try await server.send(.post, "/v1/accounts", body: form, headers: [.origin: "https://evil.example", .contentType: "text/plain"])
            #expect(response.status == .forbidden)
            #expect(try await server.snapshot() == before)
            let webApp = try await server.send(.post, "/v1/accounts", body: form, headers: [.origin: "http://localhost"])
            #expect(webApp.status == .created)
        }
    }

    @Test func hstsOnlyWhenThePublicURLIsHTTPS() async throws {
        try await TestServer.run(configure: { $0.publicURL = PublicURL("https://map.example.org") }) { server in
            for path in ["/", "/v1/StudentLocation", "/no/such/path"] {
                let response = try await server.send(.get, path)
                #expect(response.headers[.init("Strict-Transport-Security")!] == "max-age=31536000", "\(path)")
            }
        }
        try await TestServer.run(configure: { $0.publicURL = PublicURL("http://map.example.org") }) { server in
            let response = try await server.send(.get, "/")
            #expect(response.headers[.init("Strict-Transport-Security")!] == nil)
        }
    }
}
