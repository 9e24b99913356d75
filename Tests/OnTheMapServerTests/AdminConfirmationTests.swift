import Foundation
import HTTPTypes
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// An admin changes accounts (disables, promotes, issues a reset link) only
/// within ten minutes of proving their password: logging in, or typing it again. A session left
/// open on a shared computer can still moderate pins, but not take over accounts.
@Suite struct AdminConfirmationTests {
    static func change(_ server: TestServer, _ admin: TestSession, _ student: TestSession) async throws -> TestResponse {
        try await server.send(.patch, "/v1/admin/accounts/\(student.key)", body: #"{"disabled": true}"#, headers: admin.bearerHeader)
    }

    @Test func accountChangesNeedThePasswordProvedInTheLastTenMinutes() async throws {
        let time = ClockTests.MovableClock()
        try await TestServer.run(clock: time.clock) { server in
            let (admin, student, pin) = try await AdminTests.course(server)
            time.advance(seconds: 11 * 60)
            let refused = try await Self.change(server, admin, student)
            #expect(refused.status == .forbidden)
            #expect(try refused.object()["parameter"] as? String == "password")
            let reset = try await server.send(.post, "/v1/admin/accounts/\(student.key)/password-reset", headers: admin.bearerHeader)
            #expect(reset.status == .forbidden)
            // Pins are moderated as before.
            let hidden = try await server.send(.patch, "/v1/admin/locations/\(pin)", body: #"{"hidden": true}"#, headers: admin.bearerHeader)
            #expect(hidden.status == .ok)
            #expect(try await server.store.account(key: student.key)?.isDisabled == false, "nothing changed")

            let wrong = try await server.send(.post, "/v1/me/confirm-password", body: #"{"password": "not it"}"#, headers: admin.bearerHeader)
            #expect(wrong.status == .forbidden)
            #expect(try await Self.change(server, admin, student).status == .forbidden)
            let confirmed = try await server.send(.post, "/v1/me/confirm-password", body: #"{"password": "\#(admin.password)"}"#, headers: admin.bearerHeader)
            #expect(confirmed.status == .ok, "\(confirmed.text)")
            #expect(try await Self.change(server, admin, student).status == .ok)
            time.advance(seconds: 9 * 60)
            #expect(try await server.send(.post, "/v1/admin/accounts/\(student.key)/password-reset", headers: admin.bearerHeader).status == .created)
            time.advance(seconds: 2 * 60)
            #expect(try await server.send(.patch, "/v1/admin/accounts/\(student.key)", body: #"{"disabled": false}"#, headers: admin.bearerHeader).status == .forbidden)
        }
    }

    @Test func confirmingIsThrottledAsALoginIs() async throws {
        try await TestServer.run(configure: { $0.loginThrottleLimit = 3 }) { server in
            let admin = try await server.signUp()
            for _ in 1...3 {
                #expect(try await server.send(.post, "/v1/me/confirm-password", body: #"{"password": "guess"}"#, headers: admin.bearerHeader).status == .forbidden)
            }
            let throttled = try await server.send(.post, "/v1/me/confirm-password", body: #"{"password": "\#(admin.password)"}"#, headers: admin.bearerHeader)
            #expect(throttled.status == .tooManyRequests && throttled.headers[.retryAfter] != nil)
            #expect(try await server.send(.post, "/v1/me/confirm-password", body: "{}", headers: admin.bearerHeader).status == .badRequest)
            #expect(try await server.send(.post, "/v1/me/confirm-password", body: #"{"password": "x"}"#).status == .unauthorized)
        }
    }
}
