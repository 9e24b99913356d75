import Foundation
@testable import OnTheMapKit
@testable import OnTheMapServer
@testable import OnTheMapStore
import SQLKit
import Testing

/// Every error the server documents reaches an app as an `OnTheMapError` of its kind,
/// with the field to blame and how long to wait where the server says.
extension KitSuite {
@Suite struct KitErrorTests {
    @Test(arguments: KitTransport.allCases)
    func accountErrors(transport: KitTransport) async throws {
        try await KitSuite.live { server, port in
            let client = transport.client(port: port)
            let email = freshEmail()
            try await client.signUp(email: email, password: "correct horse battery", firstName: "Ada", lastName: "Lovelace")

            let taken = await kindThrown { try await client.signUp(email: email, password: "another good one", firstName: "A", lastName: "B") }
            #expect(taken?.kind == .emailTaken && taken?.status == 409 && taken?.code == 203 && taken?.parameter == "email")

            let weak = await kindThrown { try await client.signUp(email: freshEmail(), password: "12345678", firstName: "A", lastName: "B") }
            #expect(weak?.kind == .invalid && weak?.parameter == "password", "\(String(describing: weak))")

            let wrong = await kindThrown { try await client.logIn(email: email, password: "not the password") }
            #expect(wrong?.kind == .wrongCredentials && wrong?.status == 403)
            #expect(wrong?.message == "Account not found or invalid credentials.", "read after the Udacity prefix")

            let student = try await server.signUp()
            try await server.store.writer.run(SQLQueryString("UPDATE accounts SET disabled_at = 1 WHERE key = \(bind: student.key)"))
            let disabled = await kindThrown { try await client.logIn(email: student.email, password: student.password) }
            #expect(disabled?.kind == .accountDisabled)

            // Ten failures in a minute for one email and address, then 429 with Retry-After.
            let target = try await server.signUp()
            var last: OnTheMapError?
            for _ in 0..<11 { last = await kindThrown { try await client.logIn(email: target.email, password: "wrong password!") } }
            #expect(last?.kind == .throttled && last?.status == 429 && last?.code == nil)
            #expect((last?.retryAfter ?? .zero) > .zero)
        }
    }

    @Test(arguments: KitTransport.allCases)
    func locationErrors(transport: KitTransport) async throws {
        try await KitSuite.live { server, port in
            let anonymous = transport.client(port: port)
            let somewhere = NewLocation(mapString: "Lima", mediaURL: "https://example.com", latitude: -12, longitude: -77)
            let unauthenticated = await kindThrown { try await anonymous.post(somewhere) }
            #expect(unauthenticated?.kind == .notLoggedIn && unauthenticated?.status == 401 && unauthenticated?.code == 209)

            let owner = try await server.signUp()
            let theirs = try await server.postLocation(as: owner)
            let client = transport.client(port: port)
            try await client.signUp(email: freshEmail(), password: "correct horse battery", firstName: "Eve", lastName: "Else")
            let notMine = await kindThrown { try await client.overwrite(theirs, with: somewhere) }
            #expect(notMine?.kind == .notOwner && notMine?.status == 403 && notMine?.code == 119)
            #expect(await kindThrown { try await client.delete(theirs) }?.kind == .notOwner)
            #expect(await kindThrown { try await client.delete("noSuchPin0") }?.kind == .notFound)

            var badLink = somewhere
            badLink.mediaURL = "javascript:alert(1)"
            let invalid = await kindThrown { try await client.post(badLink) }
            #expect(invalid?.kind == .invalid && invalid?.code == 142 && invalid?.parameter == "mediaURL")

            var huge = somewhere
            huge.mediaURL = "https://example.com/" + String(repeating: "a", count: 70_000)
            let tooLarge = await kindThrown { try await client.post(huge) }
            #expect(tooLarge?.kind == .tooLarge && tooLarge?.status == 413 && tooLarge?.code == 116)

            // Nothing above changed the owner's pin.
            #expect(try await client.location(id: theirs).mapString == "Seattle, WA")
            #expect(try await client.latest().count == 1)
        }
    }

    @Test(arguments: KitTransport.allCases)
    func aServerThatIsNotThereIsANetworkError(transport: KitTransport) async throws {
        // A port nothing listens on (bound and let go, never listened on).
        let closedPort = try freePort()
        // The default timeout (30 s): a server that is down is told at once, not when the call times out.
        let client = transport.client(port: closedPort, sessionStore: InMemorySessionStore(
            Session(id: "a session", accountKey: "1", expiration: nil)))
        let started = ContinuousClock.now
        let error = await kindThrown { try await client.latest() }
        #expect(error?.kind == .network && error?.status == nil && error?.message.hasPrefix("Could not reach the server") == true)
        #expect(ContinuousClock.now - started < .seconds(15), "a refused connection waited for the call's timeout")
        // Logging out offline still forgets the session here, and says the server was not told.
        #expect(await kindThrown { try await client.logOut() }?.kind == .network)
        #expect(try await client.currentSession() == nil)
    }

    /// The answers the façade cannot easily provoke from a healthy server, read as the server sends them.
    @Test func theRestOfTheCatalogue() {
        func read(_ status: Int, _ body: String, retryAfter: Duration? = nil, operation: String = "v1-create") -> OnTheMapError {
            OnTheMapError(status: status, body: Data(body.utf8), retryAfter: retryAfter, operationID: operation)
        }
        let running = read(409, #"{"code":159,"error":"still running","status":409}"#, retryAfter: .seconds(1))
        #expect(running.kind == .duplicateRequest && running.retryAfter == .seconds(1))
        #expect(read(422, #"{"code":159,"error":"other request","parameter":"Idempotency-Key","status":422}"#).parameter == "Idempotency-Key")
        #expect(read(400, #"{"code":159,"error":"Duplicate request"}"#, operation: "parse-create").kind == .duplicateRequest)
        #expect(read(500, #"{"code":1,"error":"Internal server error.","status":500}"#).kind == .serverError)
        let down = read(503, #"{"code":1,"error":"The database is unavailable.","status":503}"#, retryAfter: .seconds(2))
        #expect(down.kind == .unavailable && down.retryAfter == .seconds(2))
        let proxy = read(502, "<html>Bad Gateway</html>")
        #expect(proxy.kind == .serverError && proxy.message.contains("502") && proxy.code == nil)
        #expect(read(405, #"{"code":119,"error":"Method not allowed","status":405}"#).kind == .unexpectedAnswer)
        #expect(read(403, #"{"code":119,"error":"This account has been disabled by an admin of this map.","status":403}"#).kind == .forbidden)
    }
}
}
