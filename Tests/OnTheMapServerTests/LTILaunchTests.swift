import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import NIOCore
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapStore
import Testing

/// An LTI 1.3 launch through the server's routes (issue 43, "Launch"): the login initiation sends
/// the browser to the platform with a state and nonce; the launch it posts back opens the course's
/// map logged in, making the course at an instructor's first launch; and every bad launch is a
/// page that says why and makes nothing. The "platform" here signs with a key it publishes at the
/// server's own /lti/jwks (the tool's key), so that the server fetches a real key set over HTTP;
/// the whole flow against a real platform runs in the browser suite.
@Suite struct LTILaunchTests {
    static let issuer = "https://lms.example.edu"
    static let clientID = "tool-1"

    /// A server on a port, with a platform registered whose key set is the server's own.
    static func withPlatform(_ body: @Sendable (TestServer, LTIPlatform, LTIToolKeys.Key) async throws -> Void) async throws {
        try await TestServer.run(configure: { $0.publicURL = PublicURL("https://map.example.org") }, live: true) { server in
            let port = try #require(server.client.port)
            let platform = try await LTIRegistration(store: server.store, secret: .perProcess).add(.init(
                name: "LMS", issuer: issuer, clientID: clientID, deploymentIDs: ["dep-1"], authorizationURL: "http://127.0.0.1:9/authorize",
                jwksURL: "http://127.0.0.1:\(port)/lti/jwks", tokenURL: "http://127.0.0.1:9/token"))
            let key = try #require(try await LTIToolKeys(store: server.store, secret: .perProcess, clock: .system).keys().first)
            try await body(server, platform, key)
        }
    }

    /// The login initiation's redirect: its state and nonce.
    static func initiate(_ server: TestServer, hint: String = "user-1") async throws -> (state: String, nonce: String) {
        let answer = try await server.send(.get, "/lti/login?iss=\(issuer)&login_hint=\(hint)&target_link_uri=https://map.example.org/lti/launch")
        #expect(answer.status == .found)
        let location = try #require(answer.headers[.location].flatMap(URLComponents.init(string:)))
        let query = Dictionary((location.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(location.host == "127.0.0.1" && location.path == "/authorize")
        #expect(query["client_id"] == clientID && query["redirect_uri"] == "https://map.example.org/lti/launch" && query["login_hint"] == hint)
        #expect(query["response_type"] == "id_token" && query["response_mode"] == "form_post" && query["scope"] == "openid")
        return (try #require(query["state"]), try #require(query["nonce"]))
    }

    static func message(
        nonce: String, sub: String? = "user-1", roles: [String] = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
        context: LTIMessage.Context? = .init(id: "ctx-1", label: "GEO 101", title: "Geography 101"), change: (inout LTIMessage) -> Void = { _ in }
    ) -> LTIMessage {
        let now = Date()
        var message = LTIMessage(
            issuer: IssuerClaim(value: issuer), subject: sub.map { SubjectClaim(value: $0) }, audience: AudienceClaim(value: [clientID]),
            expires: ExpirationClaim(value: now.addingTimeInterval(300)), issuedAt: IssuedAtClaim(value: now), authorizedPresenter: nil,
            nonce: nonce, email: sub.map { "\($0)@example.edu" }, name: nil, givenName: "Tess", familyName: "Teacher",
            messageType: "LtiResourceLinkRequest", version: "1.3.0", deploymentID: "dep-1", roles: roles, context: context,
            resourceLink: .init(id: "link-1", title: "Where are you?"), targetLinkURI: "https://map.example.org/lti/launch")
        change(&message)
        return message
    }

    static func sign(_ message: LTIMessage, with key: LTIToolKeys.Key) async throws -> String {
        let signer = JWTKeyCollection()
        await signer.add(rsa: key.privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.kid))
        return try await signer.sign(message, kid: JWKIdentifier(string: key.kid))
    }

    static func launch(_ server: TestServer, token: String, state: String) async throws -> TestResponse {
        let form = ProviderHTTP.form([("id_token", token), ("state", state)])
        return try await server.send(.post, "/lti/launch", body: form, headers: [.contentType: "application/x-www-form-urlencoded"])
    }

    @Test func anInstructorsFirstLaunchMakesTheCourseAndALearnerJoinsIt() async throws {
        try await Self.withPlatform { server, _, key in
            let (state, nonce) = try await Self.initiate(server)
            let answer = try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonce), with: key), state: state)
            #expect(answer.status == .seeOther)
            #expect(answer.headers[.location] == "https://map.example.org/#/map")
            #expect(answer.setCookies["onthemap-course"] == "geo-101")
            #expect(answer.setCookies.keys.contains { $0.hasSuffix("otm_session") }, "logged in")
            let course = try #require(try await server.store.course(slug: CourseSlug(rawValue: "geo-101")!))
            #expect(course.title == "Geography 101")
            let teacher = try #require(try await server.store.account(provider: LTILaunchService.identityProvider(issuer: Self.issuer), subject: "user-1"))
            #expect(teacher.email == "user-1@example.edu" && teacher.firstName == "Tess")
            #expect(try await server.store.role(of: teacher.key, in: course.id) == .instructor)

            // The same launch again: its state is used.
            #expect(try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonce), with: key), state: state).status == .badRequest)

            // A learner of the same platform course joins it as a student.
            let (learnerState, learnerNonce) = try await Self.initiate(server, hint: "user-2")
            let learner = Self.message(nonce: learnerNonce, sub: "user-2", roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"])
            #expect(try await Self.launch(server, token: try await Self.sign(learner, with: key), state: learnerState).status == .seeOther)
            let student = try #require(try await server.store.account(provider: LTILaunchService.identityProvider(issuer: Self.issuer), subject: "user-2"))
            #expect(try await server.store.role(of: student.key, in: course.id) == .student)
        }
    }

    @Test func aLaunchNeverTakesOverAnAccountThatHasThePlatformsEmail() async throws {
        try await Self.withPlatform { server, platform, key in
            // The server's admin; a platform user whose profile says they are.
            let admin = try await server.signUp(email: "user-1@example.edu")
            try await server.makeAdmin(admin)
            let (state, nonce) = try await Self.initiate(server)
            #expect(try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonce), with: key), state: state).status == .seeOther)
            let launched = try #require(try await server.store.account(provider: LTILaunchService.identityProvider(issuer: Self.issuer), subject: "user-1"))
            #expect(launched.key != admin.key && !launched.isAdmin)
            #expect(launched.email == LTILaunchService.placeholderEmail(subject: "user-1", platform: platform))
            // The next launch is the same account.
            let (again, nonceAgain) = try await Self.initiate(server)
            #expect(try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonceAgain), with: key), state: again).status == .seeOther)
            #expect(try await server.store.allAccounts().count == 2)
        }
    }

    @Test func everyBadLaunchIsAPageSayingWhyAndMakesNothing() async throws {
        try await Self.withPlatform { server, _, key in
            let elsewhere = LTIToolKeys.Key(
                kid: key.kid, privateKey: try JWTKit.Insecure.RSA.PrivateKey(backing: .init(keySize: .bits2048)), signs: true)
            let learner = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]
            let cases: [(String, (String) -> LTIMessage, LTIToolKeys.Key, HTTPResponse.Status, String)] = [
                ("a bad signature", { Self.message(nonce: $0) }, elsewhere, .badRequest, "could not be checked"),
                ("the wrong audience", { Self.message(nonce: $0) { $0 = Self.with($0, audience: "another-tool") } }, key, .badRequest, "could not be checked"),
                ("an expired token", { Self.message(nonce: $0) { $0 = Self.with($0, expires: Date().addingTimeInterval(-120)) } }, key, .badRequest, "could not be checked"),
                ("another launch's nonce", { _ in Self.message(nonce: "not-this-one") }, key, .badRequest, "could not be checked"),
                ("an unknown deployment", { Self.message(nonce: $0) { $0 = Self.with($0, deployment: "dep-9") } }, key, .badRequest, "could not be checked"),
                ("no person", { Self.message(nonce: $0, sub: nil) }, key, .badRequest, "could not be checked"),
                ("no course", { Self.message(nonce: $0, context: nil) }, key, .badRequest, "from a course"),
                ("a learner before any instructor", { Self.message(nonce: $0, roles: learner) }, key, .notFound, "has not set up this map"),
                ("a Deep Linking request, not answered yet", { Self.message(nonce: $0) { $0 = Self.with($0, messageType: "LtiDeepLinkingRequest") } }, key,
                 .badRequest, "as an external tool link"),
            ]
            for (name, message, signer, status, words) in cases {
                let (state, nonce) = try await Self.initiate(server)
                let answer = try await Self.launch(server, token: try await Self.sign(message(nonce), with: signer), state: state)
                #expect(answer.status == status, "\(name)")
                #expect(answer.text.contains(words), "\(name): \(answer.text)")
                #expect(answer.headers[.contentType] == "text/html; charset=utf-8", "\(name)")
                #expect(answer.setCookies.isEmpty, "\(name)")
            }
            #expect(try await server.store.allAccounts().isEmpty, "no account was made")
            #expect(try await server.store.allCourses().count == 1, "no course was made")
            // A wrong state, and an unregistered platform.
            let (_, nonce) = try await Self.initiate(server)
            #expect(try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonce), with: key), state: "forged").status == .badRequest)
            let unknown = try await server.send(.get, "/lti/login?iss=https://other.example.edu&login_hint=x")
            #expect(unknown.status == .badRequest && unknown.text.contains("not set up"))
        }
    }

    @Test func theRolesThatTeachAndTheCoursesAddress() {
        let roles = [
            ("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor", true),
            ("http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant", true),
            ("http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator", true),
            ("Instructor", true),
            ("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner", false),
            ("http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor", false),
        ]
        for (role, teaches) in roles { #expect(Self.message(nonce: "n", roles: [role]).teaches == teaches, "\(role)") }
        #expect(LTILaunchService.slug(from: "CS 101: Spring — Café") == "cs-101-spring-cafe")
        #expect(LTILaunchService.slug(from: "数学") == "course")
    }

    static func with(
        _ message: LTIMessage, audience: String? = nil, expires: Date? = nil, deployment: String? = nil, messageType: String? = nil
    ) -> LTIMessage {
        LTIMessage(
            issuer: message.issuer, subject: message.subject, audience: audience.map { AudienceClaim(value: [$0]) } ?? message.audience,
            expires: expires.map { ExpirationClaim(value: $0) } ?? message.expires, issuedAt: message.issuedAt,
            authorizedPresenter: message.authorizedPresenter, nonce: message.nonce, email: message.email, name: message.name,
            givenName: message.givenName, familyName: message.familyName, messageType: messageType ?? message.messageType, version: message.version,
            deploymentID: deployment ?? message.deploymentID, roles: message.roles, context: message.context, resourceLink: message.resourceLink,
            targetLinkURI: message.targetLinkURI)
    }
}
