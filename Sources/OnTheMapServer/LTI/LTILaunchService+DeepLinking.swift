import Foundation
import JWTKit
import OnTheMapModel
import OnTheMapStore

/// Deep Linking 2.0: an instructor adding the tool to a module of the platform's course picks one
/// of the maps they teach, or makes one, and the platform receives a signed link to it (an
/// `ltiResourceLink` content item). The link's custom parameters name the map by its id (never
/// reused: a map deleted and another made at its address is another map), with a mark made under
/// the server's secret for that map and platform course, so that a launch of the link opens that
/// map, and a link whose parameters were written by hand, or copied into another platform course,
/// opens the platform course's own map instead (a course copied for next term gets a map of its own).
extension LTILaunchService {
    /// How long the instructor has between the platform's request and their choice.
    static let deepLinkingLifetimeMillis: Int64 = 60 * 60 * 1000

    /// The custom parameters of a link the tool made: the map's address (for people reading the
    /// platform's settings), its id, and the mark.
    static let courseParameter = "onthemap_course"
    static let mapParameter = "onthemap_map"
    static let markParameter = "onthemap_link"

    /// The platform's request as the picker page carries it, sealed under the server's secret:
    /// only this server can read or make one, and it is the instructor's alone.
    struct DeepLinkingRequest: Codable, Sendable {
        let platform: Int64
        let deployment: String
        let returnURL: String
        let data: String?
        let context: String
        let contextTitle: String
        let contextLabel: String?
        let account: String
        let expires: Int64
        /// Who may frame the picker and the page that sends the answer back.
        let frameAncestors: String
    }

    /// What the picker shows: the maps the instructor teaches (the platform course's own first,
    /// when it has one), a title for a new one, and the sealed request.
    struct DeepLinkingChoice: Sendable {
        let request: String
        let courses: [Course]
        let suggestedTitle: String
        let frameAncestors: String
    }

    /// The picker for a Deep Linking request: an instructor's (their account found or made as a
    /// launch's is), asking for a resource link.
    func deepLinkingChoice(_ message: LTIMessage, context: LTIMessage.Context, platform: LTIPlatform) async throws -> DeepLinkingChoice {
        guard message.teaches else { throw LTILaunchFailure.deepLinkingForInstructors }
        guard let settings = message.deepLinkingSettings, LTIFrame.origin(of: settings.returnURL) != nil else {
            throw LTILaunchFailure.invalidMessage("a Deep Linking request without a usable deep_link_return_url")
        }
        guard settings.acceptTypes.contains("ltiResourceLink") else {
            throw LTILaunchFailure.invalidMessage("the platform accepts \(settings.acceptTypes), not ltiResourceLink")
        }
        let account = try await account(for: message, platform: platform)
        guard !account.isDisabled else { throw LTILaunchFailure.accountDisabled }
        let ancestors = LTIFrame.ancestors(platform: platform, returnURL: message.launchPresentation?.returnURL ?? settings.returnURL)
        let request = DeepLinkingRequest(
            platform: platform.id, deployment: message.deploymentID ?? "", returnURL: settings.returnURL, data: settings.data,
            context: context.id, contextTitle: Self.title(of: context), contextLabel: context.label, account: account.key,
            expires: clock.nowMillis() + Self.deepLinkingLifetimeMillis, frameAncestors: ancestors)
        let own = try await store.course(platform: platform.id, context: context.id)
        let taught = try await store.courses(of: account.key).filter { $0.role == .instructor && $0.course.archivedAt == nil }.map(\.course)
        return DeepLinkingChoice(
            request: try seal(request), courses: taught.filter { $0.id == own } + taught.filter { $0.id != own },
            suggestedTitle: request.contextTitle, frameAncestors: ancestors)
    }

    /// What goes back to the platform: where, and the signed answer (`JWT`).
    struct DeepLinkingAnswer: Sendable {
        let returnURL: String
        let jwt: String
        let frameAncestors: String
    }

    /// The instructor's choice: a map they teach (`slug`), or a new one titled `newTitle`. The
    /// platform course's own map becomes the chosen one when it had none yet.
    func deepLink(_ sealed: String, slug: String?, newTitle: String?) async throws -> DeepLinkingAnswer {
        guard let request = open(sealed), request.expires > clock.nowMillis() else { throw LTILaunchFailure.expired }
        guard let platform = try await store.platform(id: request.platform) else { throw LTILaunchFailure.unknownPlatform("platform \(request.platform) was removed") }
        guard let account = try await store.account(key: request.account), !account.isDisabled else { throw LTILaunchFailure.accountDisabled }
        let course: Course
        if let slug, let chosen = CourseSlug(rawValue: slug) {
            guard let found = try await store.course(slug: chosen), try await store.role(of: account.key, in: found.id) == .instructor else {
                throw LTILaunchFailure.invalidMessage("\(account.key) does not teach \(slug)")
            }
            course = found
        } else {
            let title = newTitle?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            course = try await newCourse(title: String((title.isEmpty ? request.contextTitle : title).prefix(120)), label: title.isEmpty ? request.contextLabel : nil, instructor: account)
        }
        _ = try await store.link(platform: platform.id, context: request.context, to: course.id)
        // Whole seconds: some platforms' JWT libraries refuse fractional times.
        let now = Date(timeIntervalSince1970: clock.now.timeIntervalSince1970.rounded(.down))
        let answer = DeepLinkingResponse(
            issuer: IssuerClaim(value: platform.clientID), audience: AudienceClaim(value: [platform.issuer]),
            expires: ExpirationClaim(value: now.addingTimeInterval(600)), issuedAt: IssuedAtClaim(value: now), nonce: Identifiers.token(),
            deploymentID: request.deployment, data: request.data,
            contentItems: [.init(
                title: course.title, text: "Put yourself on the class map.", url: origin + LTIPaths.launch,
                custom: [
                    Self.courseParameter: course.slug.rawValue, Self.mapParameter: String(course.id.rawValue),
                    Self.markParameter: mark(course.id, platform: platform.id, context: request.context),
                ])])
        return DeepLinkingAnswer(returnURL: request.returnURL, jwt: try await toolKeys.sign(answer), frameAncestors: request.frameAncestors)
    }

    /// The map a launched link names, when its mark holds for this platform course and the map is there.
    func deepLinkedCourse(_ custom: LTICustom?, context: LTIMessage.Context, platform: LTIPlatform) async throws -> Course? {
        guard let id = custom?[Self.mapParameter].flatMap(Int64.init).map(CourseID.init(rawValue:)), let given = custom?[Self.markParameter],
              ConstantTime.equal(given, mark(id, platform: platform.id, context: context.id)) else { return nil }
        return try await store.course(id: id)
    }

    private func mark(_ course: CourseID, platform: Int64, context: String) -> String {
        String(secret.hex("lti course link", [Array(String(platform).utf8), Array(context.utf8), Array(String(course.rawValue).utf8)]).prefix(32))
    }

    private func seal(_ request: DeepLinkingRequest) throws -> String {
        Base64URL.encode(Data(try secret.seal(Array(try JSONEncoder().encode(request)), for: "lti deep linking request")))
    }

    private func open(_ sealed: String) -> DeepLinkingRequest? {
        guard sealed.utf8.count <= 8192, let bytes = Base64URL.decode(sealed),
              let plain = try? secret.open(Array(bytes), for: "lti deep linking request") else { return nil }
        return try? JSONDecoder().decode(DeepLinkingRequest.self, from: Data(plain))
    }
}

/// The tool's Deep Linking answer (Deep Linking 2.0, 4.5): signed with its key, from its client
/// id to the platform, with the link to the chosen map.
struct DeepLinkingResponse: JWTPayload {
    struct ContentItem: Codable, Sendable {
        var type = "ltiResourceLink"
        let title: String
        let text: String
        let url: String
        let custom: [String: String]
    }

    let issuer: IssuerClaim
    let audience: AudienceClaim
    let expires: ExpirationClaim
    let issuedAt: IssuedAtClaim
    let nonce: String
    var messageType = "LtiDeepLinkingResponse"
    var version = "1.3.0"
    let deploymentID: String
    let data: String?
    let contentItems: [ContentItem]

    enum CodingKeys: String, CodingKey {
        case issuer = "iss", audience = "aud", expires = "exp", issuedAt = "iat", nonce
        case messageType = "https://purl.imsglobal.org/spec/lti/claim/message_type"
        case version = "https://purl.imsglobal.org/spec/lti/claim/version"
        case deploymentID = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
        case data = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
        case contentItems = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
    }

    func verify(using _: some JWTAlgorithm) throws {}
}
