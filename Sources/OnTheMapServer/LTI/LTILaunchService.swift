import Crypto
import Foundation
import OnTheMapModel
import OnTheMapStore

/// An LTI 1.3 launch, independent of HTTP (LTI Core 1.3 and the 1EdTech Security Framework's
/// OpenID Connect third-party-initiated login): the platform's login initiation (a pending login
/// in the database, the platform's authorization URL) and the launch that follows (the login taken
/// back once, the id_token verified against the platform's keys, the person found or made and
/// linked by issuer and `sub`, the platform's course found or, at an instructor's first launch,
/// made, the role given, a session started). It sits beside OpenID Connect sign-in and reuses its
/// pending logins, identity links, key sets and sessions.
struct LTILaunchService: Sendable {
    let store: any LTIStore & ExternalLoginStore & AccountStore & CourseStore
    let accounts: AccountService
    let courses: CourseService
    let platformKeys: LTIPlatformKeys
    /// The tool's keys, which sign what it sends a platform (a Deep Linking answer).
    let toolKeys: LTIToolKeys
    /// Seals a Deep Linking request into its picker page, and marks the maps links choose.
    let secret: ServerSecret
    /// Login initiations per client address: each writes a row.
    let starts: any RateLimiter
    /// The origin the launch URL is at (`--public-url`).
    let origin: String
    let clock: WallClock
    /// How long the platform may take between the login initiation and the launch.
    static let pendingLifetimeMillis: Int64 = 5 * 60 * 1000

    /// The pending login's `provider`: the registration it was started for.
    static func provider(platform id: Int64) -> String { "lti:\(id)" }
    /// Who a platform's person is: linked by the issuer (a `sub` is unique within it).
    static func identityProvider(issuer: String) -> String { "lti " + issuer }

    /// The platform's login initiation (`iss`, `login_hint`, `target_link_uri`, and perhaps
    /// `client_id`, `lti_message_hint`, `lti_deployment_id`): where to send the browser, the
    /// platform's authorization endpoint with this launch's `state` and `nonce`, and the state and
    /// the secret that ties the launch to this browser (`LTIBrowserBinding`). Throws `Refused`.
    func login(_ parameters: [String: String], clientAddress: String) async throws -> (url: URL, state: String, binding: String) {
        try await starts.admit(clientAddress, tooMany: "launches from your network")
        guard let issuer = parameters["iss"], !issuer.isEmpty, let loginHint = parameters["login_hint"], !loginHint.isEmpty else {
            throw Refused(failure: .invalidMessage("the login initiation lacks iss or login_hint"), platform: nil)
        }
        let platform: LTIPlatform
        do {
            platform = try await registration(issuer: issuer, clientID: parameters["client_id"])
        } catch let failure as LTILaunchFailure {
            throw Refused(failure: failure, platform: nil)
        }
        // A deployment the operator did not register is refused before anything is written.
        if let deployment = parameters["lti_deployment_id"], !deployment.isEmpty, !platform.deploymentIDs.contains(deployment) {
            throw Refused(failure: .unknownDeployment(deployment), platform: platform)
        }
        let state = Identifiers.token(), nonce = Identifiers.token(), binding = Identifiers.token()
        let now = clock.nowMillis()
        // The binding's hash waits where an OpenID Connect login keeps its PKCE verifier.
        try await store.savePendingLogin(PendingExternalLogin(
            stateHash: SessionToken.hash(state), provider: Self.provider(platform: platform.id), nonce: nonce,
            codeVerifier: SessionToken.hash(binding), createdAt: now, expiresAt: now + Self.pendingLifetimeMillis))
        guard var components = URLComponents(string: platform.authorizationURL) else {
            throw Refused(failure: .platformUnavailable("unusable authorization URL \(platform.authorizationURL)"), platform: platform)
        }
        var query = [
            ("scope", "openid"), ("response_type", "id_token"), ("response_mode", "form_post"), ("prompt", "none"),
            ("client_id", platform.clientID), ("redirect_uri", origin + LTIPaths.launch), ("login_hint", loginHint),
            ("state", state), ("nonce", nonce),
        ]
        if let hint = parameters["lti_message_hint"] { query.append(("lti_message_hint", hint)) }
        components.percentEncodedQuery = [components.percentEncodedQuery, ProviderHTTP.form(query)].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: "&")
        guard let url = components.url else { throw Refused(failure: .platformUnavailable("could not build the authorization URL"), platform: platform) }
        return (url, state, binding)
    }

    /// The registration an initiation names. Without a client id, the issuer's one registration.
    private func registration(issuer: String, clientID: String?) async throws -> LTIPlatform {
        if let clientID, !clientID.isEmpty {
            guard let platform = try await store.platform(issuer: issuer, clientID: clientID) else {
                throw LTILaunchFailure.unknownPlatform("\(issuer) with client id \(clientID) is not registered")
            }
            return platform
        }
        let candidates = try await store.platforms().filter { $0.issuer == issuer }
        guard candidates.count == 1 else {
            throw LTILaunchFailure.unknownPlatform(candidates.isEmpty ? "\(issuer) is not registered" : "\(issuer) is registered more than once: it must send client_id")
        }
        return candidates[0]
    }

    /// A launch that opened a map: the session, the course, and whether the person teaches it.
    struct Launched: Sendable {
        let session: AccountService.IssuedSession
        let course: Course
        let teaches: Bool
        let platform: LTIPlatform
        /// Who may frame the map it opens (`LTIFrame`).
        let frameAncestors: String
    }

    /// A launch refused, and by which registration when that was known by then (whose origins may
    /// frame the page that says why).
    struct Refused: Error {
        let failure: LTILaunchFailure
        let platform: LTIPlatform?
    }

    /// The launch the platform posted (`id_token`, `state`), with the secret the browser kept for
    /// it (`LTIBrowserBinding`). Throws `Refused`.
    func launch(idToken: String, state: String, binding: String?) async throws -> Outcome {
        guard !state.isEmpty, state.utf8.count <= 256, !idToken.isEmpty, idToken.utf8.count <= 64 * 1024 else { throw Refused(failure: .expired, platform: nil) }
        // Taken whatever comes next: a state is good for one launch, and with it its nonce.
        guard let pending = try await store.takePendingLogin(stateHash: SessionToken.hash(state), now: clock.nowMillis()),
              pending.provider.hasPrefix("lti:"), let id = Int64(pending.provider.dropFirst(4)),
              let platform = try await store.platform(id: id) else { throw Refused(failure: .expired, platform: nil) }
        guard let binding, ConstantTime.equal(SessionToken.hash(binding), pending.codeVerifier) else {
            throw Refused(failure: .otherBrowser, platform: platform)
        }
        do {
            return try await launch(idToken: idToken, nonce: pending.nonce, platform: platform)
        } catch let failure as LTILaunchFailure {
            throw Refused(failure: failure, platform: platform)
        }
    }

    /// Who may frame the page saying why a launch was refused: its platform's origins; when the
    /// launch named none it could be held to (an expired state), every registered platform's.
    func frameAncestors(for refused: Refused) async -> String {
        if let platform = refused.platform { return LTIFrame.ancestors(platform: platform) }
        let platforms = (try? await store.platforms()) ?? []
        return LTIFrame.sourceList(Set(platforms.flatMap { LTIFrame.origins(platform: $0) }).sorted())
    }

    /// What a verified launch opened: a course's map, or the picker of a Deep Linking request.
    enum Outcome: Sendable {
        case map(Launched)
        case deepLinking(DeepLinkingChoice)
    }

    private func launch(idToken: String, nonce: String, platform: LTIPlatform) async throws -> Outcome {
        let message = try await platformKeys.verified(idToken, from: platform, nonce: nonce, now: clock.now)
        guard let context = message.context else { throw LTILaunchFailure.noContext }
        if message.messageType == LTIMessage.Kind.deepLinking.rawValue {
            return .deepLinking(try await deepLinkingChoice(message, context: context, platform: platform))
        }
        // The map a link chose when it was added (Deep Linking), if it is still there and the
        // link is still in the platform course it was added to.
        let chosen = try await deepLinkedCourse(message.custom, context: context, platform: platform)
        // A learner before any instructor is refused before anything is made.
        if !message.teaches, chosen == nil, try await store.course(platform: platform.id, context: context.id) == nil {
            throw LTILaunchFailure.courseNotSetUp(context.id)
        }
        let account = try await account(for: message, platform: platform)
        guard !account.isDisabled else { throw LTILaunchFailure.accountDisabled }
        let course: Course
        if let chosen { course = chosen } else { course = try await self.course(for: context, platform: platform, account: account, teaches: message.teaches) }
        try await join(account, course, teaches: message.teaches)
        try await noteServices(of: message, context: context, platform: platform)
        let session = try await accounts.startSession(for: account)
        return .map(Launched(
            session: session, course: course, teaches: message.teaches, platform: platform,
            frameAncestors: LTIFrame.ancestors(platform: platform, returnURL: message.launchPresentation?.returnURL)))
    }

    /// The account linked to this person at this platform; else a new account, linked, named
    /// from the claims. Its email is an address of its own that can receive nothing: the email a
    /// platform sends is what its user typed in their profile, checked by nobody, so it must not
    /// find an account, join the class lists waiting for that address, or be found later by a
    /// provider's verified sign-in. The platform's email is kept on the link, and shown to the
    /// person's instructors beside their name (`LTIRoster.shownEmails`).
    func account(for message: LTIMessage, platform: LTIPlatform) async throws -> Account {
        let provider = Self.identityProvider(issuer: platform.issuer)
        let subject = message.subject?.value ?? ""
        let email = Self.placeholderEmail(subject: subject, platform: platform)
        let shared = message.email.flatMap { try? Validation.email($0) } ?? email
        for _ in 0..<3 {
            // Asked again each time: a launch of the same person at this moment may have made it.
            if let linked = try await store.account(provider: provider, subject: subject) { return linked }
            let first = Validation.nameFromElsewhere(message.givenName), last = Validation.nameFromElsewhere(message.familyName)
            let full = Validation.nameFromElsewhere(message.name)
            let account = Account(
                key: Identifiers.accountKey(), email: email, firstName: first.isEmpty ? (full.isEmpty ? "Student" : full) : first, lastName: last,
                passwordHash: Account.noPassword, isAdmin: false, createdAt: clock.nowMillis())
            do {
                try await store.insertAccount(account, linkedTo: ExternalIdentity(
                    provider: provider, subject: subject, accountKey: account.key, email: shared, linkedAt: account.createdAt))
                return account
            } catch StoreError.emailTaken, StoreError.keyTaken {
                // The same person's account, made by that other launch: found next time round.
                continue
            }
        }
        throw StoreError.keyTaken
    }

    /// A launched person's address: theirs alone, and one that can never receive mail (RFC 2606's
    /// `.invalid`).
    static let placeholderSuffix = ".invalid"

    static func placeholderEmail(subject: String, platform: LTIPlatform) -> String {
        let digest = SHA256.hash(data: Array("\(platform.issuer)\n\(subject)".utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
        return "lti-\(digest)@platform-\(platform.id).invalid"
    }

    /// The course the platform's course is here. At an instructor's first launch it is made, titled
    /// from the platform's course, taught by them; a learner's launch before that is refused.
    private func course(for context: LTIMessage.Context, platform: LTIPlatform, account: Account, teaches: Bool) async throws -> Course {
        if let linked = try await store.course(platform: platform.id, context: context.id), let course = try await store.course(id: linked) {
            return course
        }
        guard teaches else { throw LTILaunchFailure.courseNotSetUp(context.id) }
        let made = try await newCourse(title: Self.title(of: context), label: context.label, instructor: account)
        if try await store.link(platform: platform.id, context: context.id, to: made.id) { return made }
        // Another instructor's launch linked one a moment ago: theirs stays.
        _ = try await store.deleteCourse(made.id, audit: nil)
        guard let linked = try await store.course(platform: platform.id, context: context.id), let course = try await store.course(id: linked) else {
            throw LTILaunchFailure.courseNotSetUp(context.id)
        }
        return course
    }

    /// The member list and grade book the launch names, kept for the platform course's roster and
    /// grading (`LTIRoster`, `LTIGrades`): the grade book only when the tool may make line items
    /// and score in it.
    private func noteServices(of message: LTIMessage, context: LTIMessage.Context, platform: LTIPlatform) async throws {
        let members = message.namesRoleService?.contextMembershipsURL
        let grades = message.gradeService.flatMap { service in
            Set([LTIServiceClient.lineItemScope, LTIServiceClient.scoreScope]).isSubset(of: service.scope) ? service.lineItems : nil
        }
        guard members != nil || grades != nil else { return }
        try await store.noteServices(platform: platform.id, context: context.id, membershipsURL: members, lineItemsURL: grades)
    }

    /// The launcher becomes a member: an instructor when they teach the platform's course, else a
    /// student; nobody is demoted.
    private func join(_ account: Account, _ course: Course, teaches: Bool) async throws {
        let role = try await store.role(of: account.key, in: course.id)
        if role == nil || (teaches && role == .student) {
            _ = try await store.setMember(account.key, of: course.id, role: teaches ? .instructor : .student, now: clock.nowMillis())
        }
    }

    /// A new course's title: the platform course's title, else its label.
    static func title(of context: LTIMessage.Context) -> String {
        let title = [context.title, context.label].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? "Course"
        return String(title.prefix(120))
    }

    /// A course with a free slug made from the platform course's label or title.
    func newCourse(title: String, label: String?, instructor: Account) async throws -> Course {
        let base = Self.slug(from: label ?? title)
        for attempt in 0..<8 {
            let suffix = attempt == 0 ? "" : "-" + Identifiers.token(bytes: 2)
            var stem = String(base.prefix(CourseSlug.maxLength - suffix.count))
            while stem.hasSuffix("-") { stem.removeLast() }
            guard let slug = CourseSlug(rawValue: stem + suffix) else { continue }
            do {
                return try await courses.create(slug: slug.rawValue, title: title, instructor: instructor, by: instructor)
            } catch let refusal as APIError where refusal == .courseSlugTaken {
                continue
            }
        }
        throw LTILaunchFailure.invalidMessage("no free address for the course \(title)")
    }

    /// "CS 101: Spring" → "cs-101-spring"; at least two characters ("course" when nothing is left).
    static func slug(from text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var slug = ""
        for scalar in folded.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.count >= 2 ? String(slug.prefix(CourseSlug.maxLength)) : "course"
    }
}
