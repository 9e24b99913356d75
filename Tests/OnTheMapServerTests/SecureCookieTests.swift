import Foundation
import HTTPTypes
import Hummingbird
@testable import OnTheMapServer
import Testing

/// Served over https, the session and device cookies are `__Host-` cookies
/// (Secure, host-only, `Path=/`: no sibling host or plain-http page can set or shadow them), the
/// sign-in cookie `__Secure-`; `XSRF-TOKEN` keeps its name, which a legacy client reads by name.
@Suite struct SecureCookieTests {
    static func https(_ configuration: inout AppConfiguration) {
        configuration.publicURL = PublicURL("https://map.example.org")
    }

    @Test func overHTTPSTheCookiesAreHostCookies() async throws {
        try await TestServer.run(configure: Self.https) { server in
            let student = try await server.signUp()
            let login = #"{"udacity": {"username": "\#(student.email)", "password": "\#(student.password)"}}"#
            let answer = try await server.send(.post, "/v1/session", body: login)
            #expect(answer.status == .ok)
            for name in ["__Host-otm_session", "__Host-otm_device"] {
                let line = try #require(answer.setCookieLine(name), "\(name)")
                #expect(line.contains("; Secure") && line.contains("Path=/;") && !line.lowercased().contains("domain="), "\(line)")
            }
            #expect(answer.setCookieLine("otm_session") == nil, "no plain session cookie is set over https")
            #expect(try #require(answer.setCookieLine("XSRF-TOKEN")).contains("; Secure"))
            let token = try #require(answer.setCookies["__Host-otm_session"])
            #expect(try await server.send(.get, "/v1/me", headers: [.cookie: "__Host-otm_session=\(token)"]).status == .ok)
            // A student logged in before the server moved to https keeps their plain cookie.
            #expect(try await server.send(.get, "/v1/me", headers: [.cookie: "otm_session=\(token)"]).status == .ok)
            let logout = try await server.send(.delete, "/v1/session", headers: [.cookie: "__Host-otm_session=\(token)"])
            #expect(logout.status == .ok)
            for name in ["__Host-otm_session", "otm_session", "XSRF-TOKEN"] {
                #expect(logout.headers[values: .setCookie].contains { $0.hasPrefix("\(name)=;") && $0.contains("Max-Age=0") }, "\(name) cleared")
            }
        }
    }

    @Test func overHTTPTheNamesArePlain() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let login = #"{"udacity": {"username": "\#(student.email)", "password": "\#(student.password)"}}"#
            let answer = try await server.send(.post, "/v1/session", body: login)
            #expect(answer.setCookies["otm_session"] != nil && answer.setCookies["otm_device"] != nil && answer.setCookies["XSRF-TOKEN"] != nil)
            #expect(answer.setCookies.keys.allSatisfy { !$0.hasPrefix("__") })
        }
    }
}
