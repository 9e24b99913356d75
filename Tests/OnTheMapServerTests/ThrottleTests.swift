import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 2, item 4: after 10 failed logins in a minute for one email from one address, 429 for that
/// pair only.
@Suite struct ThrottleTests {
    let wrong = #"{"udacity": {"username": "ada@example.com", "password": "wrong password"}}"#
    let right = #"{"udacity": {"username": "ada@example.com", "password": "correct horse"}}"#

    @Test func eleventhFailedLoginIsThrottled() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            let attacker: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.7"]
            for attempt in 1...10 {
                let response = try await server.send(.post, "/v1/session", body: wrong, headers: attacker)
                #expect(response.status == .forbidden, "attempt \(attempt)")
            }
            let blocked = try await server.send(.post, "/v1/session", body: right, headers: attacker)
            #expect(blocked.status == .tooManyRequests)
            let retryAfter = try #require(Int(blocked.headers[.retryAfter] ?? ""))
            #expect((1...60).contains(retryAfter))
        }
    }

    @Test func sameAccountStillLogsInFromElsewhere() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            for _ in 1...10 {
                try await server.send(.post, "/v1/session", body: wrong, headers: [.init("X-Forwarded-For")!: "203.0.113.7"])
            }
            let elsewhere = try await server.send(.post, "/v1/session", body: right, headers: [.init("X-Forwarded-For")!: "198.51.100.1"])
            #expect(elsewhere.status == .ok)
        }
    }

    @Test func otherEmailFromSameAddressIsNotThrottled() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            _ = try await server.signUp(email: "grace@example.com")
            let address: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.7"]
            for _ in 1...10 { try await server.send(.post, "/v1/session", body: wrong, headers: address) }
            let other = try await server.send(.post, "/v1/session",
                                              body: #"{"udacity": {"username": "grace@example.com", "password": "correct horse"}}"#, headers: address)
            #expect(other.status == .ok)
        }
    }

    @Test func nineFailuresThenSuccessIsAllowed() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            for _ in 1...9 { try await server.send(.post, "/v1/session", body: wrong) }
            #expect(try await server.send(.post, "/v1/session", body: right).status == .ok)
        }
    }
}
