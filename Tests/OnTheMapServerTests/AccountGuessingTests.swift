import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import OnTheMapServer
import Testing

/// Guessing costs the guesser. One account guessed at from many addresses is
/// slowed for devices that never logged in to it, while its owner, on a device they used before,
/// still logs in (OWASP's device cookies); an IPv6 subscriber's /64 is one address; a password
/// reset checks its token before any bcrypt work, and wrong tokens are limited per address.
@Suite struct AccountGuessingTests {
    static func login(_ email: String, _ password: String) -> String {
        #"{"udacity": {"username": "\#(email)", "password": "\#(password)"}}"#
    }

    static func from(_ address: String, _ extra: HTTPFields = [:]) -> HTTPFields {
        [.xForwardedFor: address] + extra
    }

    @Test func manyAddressesGuessingOneAccountAreStoppedWhileItsOwnerStillLogsIn() async throws {
        try await TestServer.run(configure: { $0.loginFailuresPerAccount = 3 }) { server in
            let owner = try await server.signUp(email: "ada@example.com")
            // The owner's phone logs in once: it gets the device cookie.
            let onPhone = try await server.send(.post, "/v1/session", body: Self.login(owner.email, owner.password), headers: Self.from("198.51.100.1"))
            #expect(onPhone.status == .ok)
            let device = try #require(onPhone.setCookies["otm_device"])
            #expect(try #require(onPhone.setCookieLine("otm_device")).contains("HttpOnly"))
            // A botnet: one wrong guess from each of many addresses.
            for index in 1...3 {
                let guess = try await server.send(.post, "/v1/session", body: Self.login(owner.email, "guess \(index)"), headers: Self.from("203.0.113.\(index)"))
                #expect(guess.status == .forbidden)
            }
            let fourth = try await server.send(.post, "/v1/session", body: Self.login(owner.email, owner.password), headers: Self.from("203.0.113.99"))
            #expect(fourth.status == .tooManyRequests, "even the right password, from a device that never logged in")
            #expect(fourth.headers[.retryAfter] != nil)
            // The owner's phone, from yet another network, still gets in.
            let phoneAgain = try await server.send(.post, "/v1/session", body: Self.login(owner.email, owner.password),
                                                   headers: Self.from("192.0.2.77", [.cookie: "otm_device=\(device)"]))
            #expect(phoneAgain.status == .ok, "\(phoneAgain.text)")
            // A device cookie of another account, or a forged one, vouches for nothing.
            let other = try await server.signUp()
            let otherDevice = try #require(try await server.send(.post, "/v1/session", body: Self.login(other.email, other.password)).setCookies["otm_device"])
            let tampered = device.dropLast() + (device.hasSuffix("0") ? "1" : "0")
            for forged in [otherDevice, owner.key + ".00.00", tampered] {
                let refused = try await server.send(.post, "/v1/session", body: Self.login(owner.email, owner.password),
                                                    headers: Self.from("192.0.2.78", [.cookie: "otm_device=\(forged)"]))
                #expect(refused.status == .tooManyRequests, "\(forged)")
            }
            // Another account is not affected.
            #expect(try await server.send(.post, "/v1/session", body: Self.login(other.email, other.password), headers: Self.from("203.0.113.5")).status == .ok)
        }
    }

    @Test func anIPv6SubscribersSlash64IsOneAddress() async throws {
        try await TestServer.run(configure: { $0.loginFailuresPerAddressPerMinute = 4 }) { server in
            _ = try await server.signUp(email: "ada@example.com")
            for index in 1...4 {
                let guess = try await server.send(.post, "/v1/session", body: Self.login("nobody\(index)@example.com", "wrong"),
                                                  headers: Self.from("2001:db8:aa:bb::\(index)"))
                #expect(guess.status == .forbidden)
            }
            let sameSubscriber = try await server.send(.post, "/v1/session", body: Self.login("other@example.com", "wrong"),
                                                       headers: Self.from("2001:db8:aa:bb:ffff:1:2:3"))
            #expect(sameSubscriber.status == .tooManyRequests)
            let nextSubscriber = try await server.send(.post, "/v1/session", body: Self.login("other@example.com", "wrong"),
                                                       headers: Self.from("2001:db8:aa:bc::1"))
            #expect(nextSubscriber.status == .forbidden)
        }
    }

    @Test func aResetTokenIsCheckedBeforeAnyBcryptWorkAndGuessesAreLimited() async throws {
        let hasher = CountingHasher()
        try await TestServer.run(configure: { $0.passwordResetFailuresPerAddress = 5 }, hasher: hasher) { server in
            let (admin, student, _) = try await AdminTests.course(server)
            let hashesBefore = await hasher.hashes
            for index in 1...5 {
                let guess = #"{"token": "\#(String(repeating: "0", count: 63))\#(index)", "password": "a brand new passphrase"}"#
                let refused = try await server.send(.post, "/v1/password-reset", body: guess, headers: Self.from("203.0.113.40"))
                #expect(refused.status == .badRequest)
            }
            #expect(await hasher.hashes == hashesBefore, "no bcrypt work for a dead token")
            let sixth = try await server.send(.post, "/v1/password-reset", body: #"{"token": "x", "password": "a brand new passphrase"}"#,
                                              headers: Self.from("203.0.113.40"))
            #expect(sixth.status == .tooManyRequests)
            // A real link still works from another address, and costs its one hash.
            let issued = try await server.send(.post, "/v1/admin/accounts/\(student.key)/password-reset", headers: admin.bearerHeader)
            let url = try #require(try issued.object()["url"] as? String)
            let token = try #require(url.components(separatedBy: "#/reset/").last)
            let reset = #"{"token": "\#(token)", "password": "a brand new passphrase"}"#
            #expect(try await server.send(.post, "/v1/password-reset", body: reset, headers: Self.from("198.51.100.40")).status == .ok)
            #expect(await hasher.hashes == hashesBefore + 1)
        }
    }
}
