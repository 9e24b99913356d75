import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// After 10 failed logins in a minute for one email from one address, 429 for that
/// pair only. Also per address: failed logins over any emails, and sign-ups.
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
            #expect((1...3600).contains(retryAfter))  // within the window TestServer sets
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

    @Test func manyEmailsFailingFromOneAddressAreThrottledThere() async throws {
        try await TestServer.run(configure: { $0.loginFailuresPerAddressPerMinute = 5 }) { server in
            _ = try await server.signUp(email: "ada@example.com")
            let stuffer: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.9"]
            for attempt in 1...5 {
                let body = #"{"udacity": {"username": "guess\#(attempt)@example.com", "password": "123456"}}"#
                #expect(try await server.send(.post, "/v1/session", body: body, headers: stuffer).status == .forbidden)
            }
            let blocked = try await server.send(.post, "/v1/session", body: right, headers: stuffer)
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.text.contains("from your network"))
            #expect(Int(blocked.headers[.retryAfter] ?? "").map { (1...3600).contains($0) } == true)
            let elsewhere = try await server.send(.post, "/v1/session", body: right, headers: [.init("X-Forwarded-For")!: "198.51.100.1"])
            #expect(elsewhere.status == .ok)
        }
    }

    @Test func aGoodLoginDoesNotClearTheAddressRecord() async throws {
        try await TestServer.run(configure: { $0.loginFailuresPerAddressPerMinute = 3 }) { server in
            _ = try await server.signUp(email: "ada@example.com")
            let address: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.9"]
            for attempt in 1...2 {
                try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "x\#(attempt)@example.com", "password": "p"}}"#, headers: address)
            }
            #expect(try await server.send(.post, "/v1/session", body: right, headers: address).status == .ok)
            try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "x3@example.com", "password": "p"}}"#, headers: address)
            #expect(try await server.send(.post, "/v1/session", body: right, headers: address).status == .tooManyRequests)
        }
    }

    @Test func signUpsArePerAddressLimited() async throws {
        try await TestServer.run(configure: { $0.signUpsPerAddressPer10Minutes = 2 }) { server in
            let address: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.10"]
            func signUp(_ email: String, from headers: HTTPFields) async throws -> TestResponse {
                try await server.send(.post, "/v1/accounts", body: """
                    {"email": "\(email)", "password": "correct horse", "firstName": "A", "lastName": "B"}
                    """, headers: headers)
            }
            #expect(try await signUp("one@example.com", from: address).status == .created)
            #expect(try await signUp("two@example.com", from: address).status == .created)
            let third = try await signUp("three@example.com", from: address)
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[.retryAfter] != nil)
            #expect(try await server.store.account(email: "three@example.com") == nil, "a refused sign-up creates nothing")
            #expect(try await signUp("three@example.com", from: [.init("X-Forwarded-For")!: "198.51.100.2"]).status == .created)
        }
    }

    // Attempts sent all at once are held to the same limits as attempts sent in turn.

    @Test func aBurstAtOneAccountIsHeldToTheLimit() async throws {
        try await TestServer.run { server in
            _ = try await server.signUp(email: "ada@example.com")
            let statuses = try await burst(server, count: 60) { _ in wrong }
            #expect(statuses[403] == 10, "\(statuses)")
            #expect(statuses[429] == 50, "\(statuses)")
        }
    }

    @Test func aBurstOverManyEmailsFromOneAddressIsHeldToTheLimit() async throws {
        try await TestServer.run { server in
            let statuses = try await burst(server, count: 80) { attempt in
                #"{"udacity": {"username": "guess\#(attempt)@example.com", "password": "123456789"}}"#
            }
            #expect(statuses[403] == 30, "\(statuses)")
            #expect(statuses[429] == 50, "\(statuses)")
        }
    }

    /// Sends `count` logins at once from one address; how many got each status.
    private func burst(_ server: TestServer, count: Int, body: @escaping @Sendable (Int) -> String) async throws -> [Int: Int] {
        let address: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.50"]
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for attempt in 0..<count {
                group.addTask { try await server.send(.post, "/v1/session", body: body(attempt), headers: address).status.code }
            }
            var statuses: [Int: Int] = [:]
            for try await status in group { statuses[status, default: 0] += 1 }
            return statuses
        }
    }
}
