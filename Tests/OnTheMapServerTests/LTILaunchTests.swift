import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import NIOConcurrencyHelpers
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
        let state = try #require(query["state"])
        // The cookie that ties the launch to this browser (`LTIBrowserBinding`), as a browser keeps it.
        let binding = try #require(answer.setCookies.first { $0.key.hasPrefix("otm_lti_") })
        browser.withLockedValue { $0[state] = "\(binding.key)=\(binding.value)" }
        return (state, try #require(query["nonce"]))
    }

    /// The binding cookies the "browser" holds, by state.
    static let browser = NIOLockedValueBox<[String: String]>([:])

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

    static func launch(_ server: TestServer, token: String, state: String, fromThisBrowser: Bool = true) async throws -> TestResponse {
        let form = ProviderHTTP.form([("id_token", token), ("state", state)])
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if fromThisBrowser, let cookie = browser.withLockedValue({ $0[state] }) { headers[.cookie] = cookie }
        return try await server.send(.post, "/lti/launch", body: form, headers: headers)
    }

    @Test func anInstructorsFirstLaunchMakesTheCourseAndALearnerJoinsIt() async throws {
        try await Self.withPlatform { server, platform, key in
            let (state, nonce) = try await Self.initiate(server)
            let answer = try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonce), with: key), state: state)
            #expect(answer.status == .ok)
            let session = try Self.launchSession(in: answer)
            #expect(session.course == "geo-101" && session.token?.isEmpty == false)
            #expect(answer.setCookies["onthemap-course"] == "geo-101")
            #expect(answer.setCookies.keys.contains { $0.hasSuffix("otm_session") }, "logged in")
            let course = try #require(try await server.store.course(slug: CourseSlug(rawValue: "geo-101")!))
            #expect(course.title == "Geography 101")
            let teacher = try #require(try await server.store.account(provider: LTILaunchService.identityProvider(issuer: Self.issuer), subject: "user-1"))
            #expect(teacher.firstName == "Tess")
            // The platform's email is what its user typed: kept on the link, never the account's.
            #expect(teacher.email == LTILaunchService.placeholderEmail(subject: "user-1", platform: platform))
            #expect(try await server.store.identities(accountKey: teacher.key).first?.email == "user-1@example.edu")
            #expect(try await server.store.role(of: teacher.key, in: course.id) == .instructor)

            // The same launch again: its state is used.
            #expect(try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonce), with: key), state: state).status == .badRequest)

            // A learner of the same platform course joins it as a student.
            let (learnerState, learnerNonce) = try await Self.initiate(server, hint: "user-2")
            let learner = Self.message(nonce: learnerNonce, sub: "user-2", roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"])
            #expect(try await Self.launch(server, token: try await Self.sign(learner, with: key), state: learnerState).status == .ok)
            let student = try #require(try await server.store.account(provider: LTILaunchService.identityProvider(issuer: Self.issuer), subject: "user-2"))
            #expect(try await server.store.role(of: student.key, in: course.id) == .student)
            // Their instructor sees the email the platform shares beside their name.
            let roster = try await server.send(.get, "/c/geo-101/v1/course/members", headers: [.authorization: "Bearer \(session.token ?? "")"])
            #expect(roster.status == .ok && roster.text.contains("user-2@example.edu"))
        }
    }

    @Test func aLaunchNeverTakesOverAnAccountThatHasThePlatformsEmail() async throws {
        try await Self.withPlatform { server, platform, key in
            // The server's admin; a platform user whose profile says they are.
            let admin = try await server.signUp(email: "user-1@example.edu")
            try await server.makeAdmin(admin)
            let (state, nonce) = try await Self.initiate(server)
            #expect(try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonce), with: key), state: state).status == .ok)
            let launched = try #require(try await server.store.account(provider: LTILaunchService.identityProvider(issuer: Self.issuer), subject: "user-1"))
            #expect(launched.key != admin.key && !launched.isAdmin)
            #expect(launched.email == LTILaunchService.placeholderEmail(subject: "user-1", platform: platform))
            // The next launch is the same account.
            let (again, nonceAgain) = try await Self.initiate(server)
            #expect(try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonceAgain), with: key), state: again).status == .ok)
            #expect(try await server.store.allAccounts().count == 2)

            // A class list waiting for an address (an instructor's, here) is not claimed by a
            // launch whose platform profile says that address is theirs.
            let staff = try #require(try await server.store.course(id: .default))
            _ = try await server.store.addPendingMember(email: "dean@example.edu", to: staff.id, role: .instructor, now: 0)
            let (deanState, deanNonce) = try await Self.initiate(server, hint: "mallory")
            let claiming = Self.message(nonce: deanNonce, sub: "mallory", roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]) {
                $0.email = "dean@example.edu"
            }
            #expect(try await Self.launch(server, token: try await Self.sign(claiming, with: key), state: deanState).status == .ok)
            let mallory = try #require(try await server.store.account(provider: LTILaunchService.identityProvider(issuer: Self.issuer), subject: "mallory"))
            #expect(mallory.email != "dean@example.edu")
            #expect(try await server.store.role(of: mallory.key, in: staff.id) != .instructor)
            #expect(try await server.store.pendingMembers(of: staff.id).map(\.email) == ["dean@example.edu"])
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
                ("a Deep Linking request without its settings", { Self.message(nonce: $0) { $0 = Self.with($0, messageType: "LtiDeepLinkingRequest") } }, key,
                 .badRequest, "could not be checked"),
                ("a learner's Deep Linking request", { Self.message(nonce: $0, roles: learner) { $0 = Self.deepLinking($0) } }, key,
                 .forbidden, "Only the course's instructors"),
            ]
            for (name, message, signer, status, words) in cases {
                let (state, nonce) = try await Self.initiate(server)
                let answer = try await Self.launch(server, token: try await Self.sign(message(nonce), with: signer), state: state)
                #expect(answer.status == status, "\(name)")
                #expect(answer.text.contains(words), "\(name): \(answer.text)")
                #expect(answer.headers[.contentType] == "text/html; charset=utf-8", "\(name)")
                #expect(answer.setCookies.filter { !$0.value.isEmpty }.isEmpty, "\(name): nothing set but the used launch's cookie forgotten")
                #expect(Self.frameAncestors(answer) == "https://lms.example.edu http://127.0.0.1:9", "\(name): shown in the platform's frame")
            }
            #expect(try await server.store.allAccounts().isEmpty, "no account was made")
            #expect(try await server.store.allCourses().count == 1, "no course was made")
            // Another site posting someone's launch from a student's browser: the launch's cookie is not there.
            let (stolen, stolenNonce) = try await Self.initiate(server)
            let posted = try await Self.launch(server, token: try await Self.sign(Self.message(nonce: stolenNonce), with: key), state: stolen, fromThisBrowser: false)
            #expect(posted.status == .badRequest && posted.text.contains("expired") && !posted.setCookies.keys.contains { $0.hasSuffix("otm_session") })
            #expect(try await server.store.allAccounts().isEmpty, "no account was made")
            // A wrong state, and an unregistered platform.
            let (_, nonce) = try await Self.initiate(server)
            #expect(try await Self.launch(server, token: try await Self.sign(Self.message(nonce: nonce), with: key), state: "forged").status == .badRequest)
            let unknown = try await server.send(.get, "/lti/login?iss=https://other.example.edu&login_hint=x")
            #expect(unknown.status == .badRequest && unknown.text.contains("not set up"))
        }
    }

    /// What the launch's page hands its script (js/launch-session.js).
    struct LaunchBlock: Decodable {
        let token: String?
        let course: String?
        let reload: String
    }

    static func launchSession(in answer: TestResponse) throws -> LaunchBlock {
        let html = answer.text
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"launch-session\">"))
        let end = try #require(html[start.upperBound...].range(of: "</script>"))
        return try JSONDecoder().decode(LaunchBlock.self, from: Data(html[start.upperBound..<end.lowerBound].utf8))
    }

    static func frameAncestors(_ answer: TestResponse) -> String? {
        answer.headers[.contentSecurityPolicy]?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("frame-ancestors ") }.map { String($0.dropFirst("frame-ancestors ".count)) }
    }

    /// Platforms show the tool in a frame of their page, where the browser may keep no cookie of
    /// the tool's: the launch answers with the app's page itself, carrying the session for its
    /// script, framed only by the platform's origins (its issuer's, its authorization endpoint's,
    /// the page the signed launch came from); loaded again, the page keeps that framing; opened
    /// in a window of its own from there, the session becomes that window's cookies.
    @Test func aLaunchOpensInThePlatformsFrameOnly() async throws {
        try await Self.withPlatform { server, _, key in
            let (state, nonce) = try await Self.initiate(server)
            let message = Self.message(nonce: nonce) {
                $0.launchPresentation = .init(documentTarget: "iframe", returnURL: "https://school.lms.example.edu:8443/courses/7/return")
            }
            let answer = try await Self.launch(server, token: try await Self.sign(message, with: key), state: state)
            #expect(answer.status == .ok && answer.headers[.contentType] == "text/html; charset=utf-8")
            #expect(answer.headers[.cacheControl] == "no-store")
            #expect(answer.headers[.xFrameOptions] == nil)
            let ancestors = "https://lms.example.edu http://127.0.0.1:9 https://school.lms.example.edu:8443"
            #expect(Self.frameAncestors(answer) == ancestors)
            let session = try Self.launchSession(in: answer)
            let token = try #require(session.token)
            #expect(!answer.text.contains("rel=\"preload\""), "no answer is preloaded with cookies")

            // The token is the session: a bearer call as the launched instructor.
            let me = try await server.send(.get, "/c/geo-101/v1/me", headers: [.authorization: "Bearer \(token)"])
            #expect(me.status == .ok && me.text.contains("Tess"))

            // The app's own page may be framed by nobody.
            let page = try await server.send(.get, "/")
            #expect(Self.frameAncestors(page) == "'none'" && page.headers[.xFrameOptions] == "DENY")

            // Loaded again in the frame: the same framing, no session in the page.
            let reload = try await server.send(.get, session.reload)
            #expect(reload.status == .ok && Self.frameAncestors(reload) == ancestors)
            let reloaded = try Self.launchSession(in: reload)
            #expect(reloaded.token == nil && reloaded.reload == session.reload)
            // A pass naming other origins is refused: its MAC does not hold.
            let forged = session.reload.replacingOccurrences(of: "frame=", with: "frame=" + Base64URL.encode(Data("https://evil.example".utf8)) + "X")
            let refused = try await server.send(.get, forged)
            #expect(refused.status == .badRequest && refused.text.contains("expired"))
            #expect(Self.frameAncestors(refused) == "http://127.0.0.1:9 https://lms.example.edu", "every registered platform, no other")

            // In a window of its own: only from this server's pages, and the session becomes its cookies.
            let form = ProviderHTTP.form([("token", token), ("course", "geo-101")])
            let formType: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            var crossSite = formType
            crossSite[.origin] = "https://lms.example.edu"
            #expect(try await server.send(.post, "/lti/window", body: form, headers: crossSite).status == .forbidden)
            var sameOrigin = formType
            sameOrigin[.origin] = "https://map.example.org"
            let window = try await server.send(.post, "/lti/window", body: form, headers: sameOrigin)
            #expect(window.status == .seeOther && window.headers[.location] == "https://map.example.org/#/map")
            #expect(window.setCookies.contains { $0.key.hasSuffix("otm_session") && $0.value == token })
            #expect(window.setCookies["onthemap-course"] == "geo-101")
            let ended = try await server.send(.post, "/lti/window", body: ProviderHTTP.form([("token", "not-a-session")]), headers: sameOrigin)
            #expect(ended.status == .badRequest && ended.setCookies.isEmpty)
        }
    }

    static func deepLinking(_ message: LTIMessage, returnURL: String = "https://lms.example.edu/deep-link/return?item=4") -> LTIMessage {
        var request = message
        request.messageType = LTIMessage.Kind.deepLinking.rawValue
        request.resourceLink = nil
        request.deepLinkingSettings = .init(returnURL: returnURL, acceptTypes: ["ltiResourceLink"], data: "opaque-42")
        return request
    }

    /// The value of the hidden or named form field `name` in a page.
    static func field(_ name: String, in html: String) throws -> String {
        let match = try #require(html.firstMatch(of: try Regex("name=\"\(name)\" value=\"([^\"]*)\"")))
        return String(try #require(match.output[1].substring))
    }

    /// Deep Linking 2.0: an instructor adding the map to a module picks a map (a new one, or one
    /// they teach); the platform gets a link signed with the tool's key whose custom parameters
    /// name that map; a learner's launch of the link lands on it. A link whose mark does not hold
    /// (written by hand, or copied into another platform course) opens the platform course's own.
    @Test func anInstructorAddsAMapThroughDeepLinking() async throws {
        try await Self.withPlatform { server, _, key in
            // The instructor teaches a map already (made at an earlier launch from another platform course).
            let (first, firstNonce) = try await Self.initiate(server)
            let earlier = Self.message(nonce: firstNonce, context: .init(id: "ctx-0", label: "GEO 100", title: "Geography 100"))
            #expect(try await Self.launch(server, token: try await Self.sign(earlier, with: key), state: first).status == .ok)

            let (state, nonce) = try await Self.initiate(server)
            let picker = try await Self.launch(server, token: try await Self.sign(Self.deepLinking(Self.message(nonce: nonce)), with: key), state: state)
            #expect(picker.status == .ok && picker.text.contains("id=\"lti-deep-link\""))
            #expect(picker.text.contains("name=\"course\" value=\"geo-100\"") && picker.text.contains("value=\"Geography 101\""))
            #expect(!picker.setCookies.keys.contains { $0.hasSuffix("otm_session") }, "the picker signs nobody in")
            #expect(Self.frameAncestors(picker) == "https://lms.example.edu http://127.0.0.1:9")
            let request = try Self.field("request", in: picker.text)

            // Only from this server's pages; a changed request is refused.
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: "https://map.example.org"]
            var crossSite = form
            crossSite[.origin] = "https://lms.example.edu"
            let choice = ProviderHTTP.form([("request", request), ("course", "geo-100")])
            #expect(try await server.send(.post, "/lti/deep-link", body: choice, headers: crossSite).status == .forbidden)
            let changed = ProviderHTTP.form([("request", String(request.dropLast(2)) + "AA"), ("course", "geo-100")])
            #expect(try await server.send(.post, "/lti/deep-link", body: changed, headers: form).status == .badRequest)
            // A map they do not teach.
            let other = try await server.signUp(email: "other@example.edu")
            _ = try await server.store.createCourse(
                slug: CourseSlug(rawValue: "someone-elses")!, title: "Not theirs", instructorKey: other.key, now: 0, audit: nil)
            let notTheirs = ProviderHTTP.form([("request", request), ("course", "someone-elses")])
            #expect(try await server.send(.post, "/lti/deep-link", body: notTheirs, headers: form).status == .badRequest)

            let answer = try await server.send(.post, "/lti/deep-link", body: choice, headers: form)
            #expect(answer.status == .ok && answer.text.contains("action=\"https://lms.example.edu/deep-link/return?item=4\""))
            #expect(answer.headers[.contentSecurityPolicy]?.contains("form-action 'self' https://lms.example.edu") == true)
            // What the platform checks: the tool's signature, from its client id to the platform.
            let jwt = try Self.field("JWT", in: answer.text)
            let verifier = JWTKeyCollection()
            await verifier.add(rsa: key.privateKey.publicKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.kid))
            let response = try await verifier.verify(jwt, as: DeepLinkingResponse.self)
            #expect(response.issuer.value == Self.clientID && response.audience.value == [Self.issuer])
            #expect(response.messageType == "LtiDeepLinkingResponse" && response.deploymentID == "dep-1" && response.data == "opaque-42")
            let item = try #require(response.contentItems.first)
            #expect(item.type == "ltiResourceLink" && item.url == "https://map.example.org/lti/launch" && item.title == "Geography 100")
            #expect(item.custom[LTILaunchService.courseParameter] == "geo-100")
            // The platform course had no map: the chosen one is its own now.
            let geo100 = try #require(try await server.store.course(slug: CourseSlug(rawValue: "geo-100")!))
            #expect(try await server.store.course(platform: 1, context: "ctx-1") == geo100.id)

            // A learner's launch of the link lands on the chosen map, as a student.
            func learnerLaunch(_ custom: [String: String], sub: String, context: String = "ctx-1") async throws -> TestResponse {
                let (learnerState, learnerNonce) = try await Self.initiate(server, hint: sub)
                let learner = Self.message(nonce: learnerNonce, sub: sub, roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
                                           context: .init(id: context, label: nil, title: "Copied course")) { $0.custom = LTICustom(custom) }
                return try await Self.launch(server, token: try await Self.sign(learner, with: key), state: learnerState)
            }
            let landed = try await learnerLaunch(item.custom, sub: "learner-1")
            #expect(landed.status == .ok)
            #expect(try Self.launchSession(in: landed).course == "geo-100")
            // A mark written by hand opens nothing but the platform course's own map.
            let elsewhere = try #require(try await server.store.course(slug: CourseSlug(rawValue: "someone-elses")!))
            let forged = try await learnerLaunch([
                LTILaunchService.courseParameter: "someone-elses", LTILaunchService.mapParameter: String(elsewhere.id.rawValue),
                LTILaunchService.markParameter: "0",
            ], sub: "learner-2")
            #expect(try Self.launchSession(in: forged).course == "geo-100")
            // The link copied into another platform course: that course has no map yet.
            let copied = try await learnerLaunch(item.custom, sub: "learner-3", context: "ctx-copy")
            #expect(copied.status == .notFound && copied.text.contains("has not set up this map"))

            // A new map, titled by the instructor.
            let (again, againNonce) = try await Self.initiate(server)
            let second = try await Self.launch(server, token: try await Self.sign(Self.deepLinking(Self.message(nonce: againNonce)), with: key), state: again)
            let create = ProviderHTTP.form([("request", try Self.field("request", in: second.text)), ("create", "1"), ("title", "Field trip: Lisbon")])
            #expect(try await server.send(.post, "/lti/deep-link", body: create, headers: form).status == .ok)
            let trip = try #require(try await server.store.course(slug: CourseSlug(rawValue: "field-trip-lisbon")!))
            #expect(trip.title == "Field trip: Lisbon")

            // The chosen map deleted, and another made at its address: the old link does not open it.
            #expect(try await server.store.deleteCourse(geo100.id))
            _ = try await server.store.createCourse(
                slug: CourseSlug(rawValue: "geo-100")!, title: "A squatter's map", instructorKey: other.key, now: 0, audit: nil)
            let squatted = try await learnerLaunch(item.custom, sub: "learner-4")
            #expect(squatted.status == .notFound && squatted.text.contains("has not set up this map"))
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
            // Teaching somewhere on the platform (Canvas sends it to anyone with a teacher enrolment) is not teaching here.
            ("http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor", false),
            ("http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator", true),
            ("urn:lti:role:ims/lis/Instructor", true),
            ("urn:lti:instrole:ims/lis/Instructor", false),
        ]
        for (role, teaches) in roles { #expect(Self.message(nonce: "n", roles: [role]).teaches == teaches, "\(role)") }
        // Canvas's roles for a learner of this course who teaches another.
        let canvasLearner = ["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor",
                             "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student",
                             "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner", "http://purl.imsglobal.org/vocab/lis/v2/system/person#User"]
        #expect(!Self.message(nonce: "n", roles: canvasLearner).teaches)
        #expect(LTILaunchService.slug(from: "CS 101: Spring — Café") == "cs-101-spring-cafe")
        #expect(LTILaunchService.slug(from: "数学") == "course")
    }

    static func with(
        _ message: LTIMessage, audience: String? = nil, expires: Date? = nil, deployment: String? = nil, messageType: String? = nil
    ) -> LTIMessage {
        var changed = message
        if let audience { changed.audience = AudienceClaim(value: [audience]) }
        if let expires { changed.expires = ExpirationClaim(value: expires) }
        if let deployment { changed.deploymentID = deployment }
        if let messageType { changed.messageType = messageType }
        return changed
    }
}
