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
}
