import Foundation
import JWTKit

/// The claims of an LTI 1.3 launch's `id_token` that this tool reads (LTI Core 1.3, 5.1 and 5.3;
/// Resource Link Launch 1.3). The signature is checked by jwt-kit against the platform's published
/// keys; everything else by `check`, which knows the registration and this launch's nonce.
struct LTIMessage: JWTIdentityToken {
    struct Context: Codable, Sendable, Equatable {
        let id: String
        let label: String?
        let title: String?
    }

    struct ResourceLink: Codable, Sendable, Equatable {
        let id: String
        let title: String?
    }

    /// Where a Deep Linking request's answer goes and what it may hold (Deep Linking 2.0, 4.4.1).
    struct DeepLinkingSettings: Codable, Sendable, Equatable {
        let returnURL: String
        let acceptTypes: [String]
        var acceptMultiple: Bool? = nil
        var data: String? = nil
        var title: String? = nil

        enum CodingKeys: String, CodingKey {
            case returnURL = "deep_link_return_url", acceptTypes = "accept_types", acceptMultiple = "accept_multiple", data, title
        }
    }

    /// Names and Role Provisioning Services 2.0: where the course's member list is.
    struct NamesRoleService: Codable, Sendable, Equatable {
        let contextMembershipsURL: String
        var serviceVersions: [String]? = nil

        enum CodingKeys: String, CodingKey {
            case contextMembershipsURL = "context_memberships_url", serviceVersions = "service_versions"
        }
    }

    /// Assignment and Grade Services 2.0: what the tool may do, and where the line items are.
    struct GradeService: Codable, Sendable, Equatable {
        var scope: [String] = []
        var lineItems: String? = nil
        var lineItem: String? = nil

        enum CodingKeys: String, CodingKey {
            case scope, lineItems = "lineitems", lineItem = "lineitem"
        }
    }

    /// How the platform shows the tool (LTI Core 5.4.4): in its frame or a window, and the page of
    /// the platform's to go back to.
    struct LaunchPresentation: Codable, Sendable, Equatable {
        let documentTarget: String?
        let returnURL: String?

        enum CodingKeys: String, CodingKey {
            case documentTarget = "document_target", returnURL = "return_url"
        }
    }

    var issuer: IssuerClaim
    /// Absent in an anonymous launch, which this tool refuses: a pin needs a person.
    var subject: SubjectClaim?
    var audience: AudienceClaim
    var expires: ExpirationClaim
    var issuedAt: IssuedAtClaim
    var authorizedPresenter: String?
    var nonce: String?
    var email: String?
    var name: String?
    var givenName: String?
    var familyName: String?
    var messageType: String?
    var version: String?
    var deploymentID: String?
    var roles: [String]?
    var context: Context?
    var resourceLink: ResourceLink?
    var targetLinkURI: String?
    var launchPresentation: LaunchPresentation? = nil
    var deepLinkingSettings: DeepLinkingSettings? = nil
    /// The custom parameters of the link (LTI Core 5.4.6): text by text; a value of another kind is left out.
    var custom: LTICustom? = nil
    var namesRoleService: NamesRoleService? = nil
    var gradeService: GradeService? = nil

    static let claimPrefix = "https://purl.imsglobal.org/spec/lti/claim/"

    enum CodingKeys: String, CodingKey {
        case issuer = "iss", subject = "sub", audience = "aud", expires = "exp", issuedAt = "iat"
        case authorizedPresenter = "azp", nonce, email, name, givenName = "given_name", familyName = "family_name"
        case messageType = "https://purl.imsglobal.org/spec/lti/claim/message_type"
        case version = "https://purl.imsglobal.org/spec/lti/claim/version"
        case deploymentID = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
        case roles = "https://purl.imsglobal.org/spec/lti/claim/roles"
        case context = "https://purl.imsglobal.org/spec/lti/claim/context"
        case resourceLink = "https://purl.imsglobal.org/spec/lti/claim/resource_link"
        case targetLinkURI = "https://purl.imsglobal.org/spec/lti/claim/target_link_uri"
        case launchPresentation = "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"
        case deepLinkingSettings = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
        case custom = "https://purl.imsglobal.org/spec/lti/claim/custom"
        case namesRoleService = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
        case gradeService = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
    }

    /// Called by jwt-kit once the signature holds; the checks that need the registration are in `check`.
    func verify(using _: some JWTAlgorithm) throws {}

    /// The message types this tool answers.
    enum Kind: String, Sendable {
        case resourceLink = "LtiResourceLinkRequest"
        case deepLinking = "LtiDeepLinkingRequest"
    }

    /// The rules the signature and audience checks leave (LTI Core 5.1.2, and the Security
    /// Framework's 5.1.3): the issuer is the registration's, the token is current (with a minute's
    /// skew), made for this launch (`nonce`), for this client when it names an authorized party, by
    /// a deployment the operator registered, an LTI 1.3.0 message of a kind this tool answers, about
    /// a person. Returns the message's kind.
    func check(issuer expectedIssuer: String, clientID: String, deployments: [String], nonce expectedNonce: String, now: Date) throws(LTILaunchFailure) -> Kind {
        if let reason = IDToken.failedCheck(
            issuer: issuer.value, expected: expectedIssuer, expires: expires.value, issuedAt: issuedAt.value, nonce: nonce, expected: expectedNonce, now: now) {
            throw .invalidToken(reason)
        }
        // With several audiences, the authorized party must be named and be this tool.
        if audience.value.count > 1 || authorizedPresenter != nil, authorizedPresenter != clientID {
            throw .invalidToken("azp is \(authorizedPresenter ?? "missing"), not this tool's client id")
        }
        guard let deploymentID, deployments.contains(deploymentID) else {
            throw .unknownDeployment(deploymentID ?? "none")
        }
        guard version == "1.3.0" else { throw .invalidMessage("LTI version \(version ?? "missing"), not 1.3.0") }
        guard let kind = messageType.flatMap(Kind.init(rawValue:)) else { throw .invalidMessage("message type \(messageType ?? "missing")") }
        guard let subject, !subject.value.isEmpty, subject.value.utf8.count <= 255 else { throw .anonymous }
        if kind == .resourceLink, resourceLink?.id.isEmpty ?? true { throw .invalidMessage("a resource link launch without its resource link") }
        guard let context, !context.id.isEmpty, context.id.utf8.count <= 255 else { throw .noContext }
        return kind
    }

    /// Whether the launcher teaches the platform's course (`LTIRoles`).
    var teaches: Bool { LTIRoles.teach(roles ?? []) }
}

/// Who teaches a platform course (LTI Core A.2): an Instructor, a TeachingAssistant (an
/// Instructor sub-role) or an Administrator *of this course* (a context role, or LTI 1.1's short
/// name), or an administrator of the whole platform or institution. An institution role such as
/// `institution/person#Instructor` says only that the person teaches somewhere (Canvas sends it to
/// anyone with a teacher enrolment anywhere): a learner here who teaches elsewhere stays a learner.
enum LTIRoles {
    static func teach(_ roles: [String]) -> Bool {
        roles.contains { role in
            if platformAdministrators.contains(role) { return true }
            let name: Substring
            if let prefix = contextRoles.first(where: role.hasPrefix) {
                name = role.dropFirst(prefix.count).split(whereSeparator: { $0 == "#" || $0 == "/" }).last ?? ""
            } else if !role.contains("/"), !role.contains("#"), !role.contains(":") {
                name = Substring(role)
            } else {
                return false
            }
            return ["Instructor", "TeachingAssistant", "Administrator"].contains(String(name))
        }
    }

    /// Context roles: LTI 1.3's, and LTI 1.1's URNs that some platforms still send (`urn:lti:instrole:`
    /// ones are institution roles, and do not count).
    private static let contextRoles = ["http://purl.imsglobal.org/vocab/lis/v2/membership", "urn:lti:role:ims/lis/"]
    private static let platformAdministrators: Set<String> = [
        "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator",
        "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator",
    ]
}

/// Why a launch from a platform did not open a map. Each is shown as a page that says what to do;
/// `detail` is for the server's log.
enum LTILaunchFailure: Error, Equatable {
    /// No registration has this issuer and client id.
    case unknownPlatform(String)
    /// The launch's `state` is unknown, expired or used: the launch was replayed, or took too long.
    case expired
    /// The launch came without the cookie its login initiation set (`LTIBrowserBinding`): posted
    /// from another browser, or by another site.
    case otherBrowser
    /// The id_token failed a check: signature, issuer, audience, time, nonce.
    case invalidToken(String)
    /// A deployment the operator did not register.
    case unknownDeployment(String)
    /// Not an LTI 1.3 message this tool answers.
    case invalidMessage(String)
    /// No `sub`: an anonymous launch.
    case anonymous
    /// No `context`: a launch from outside a course.
    case noContext
    /// A learner's Deep Linking request: only those who teach add the map to a course.
    case deepLinkingForInstructors
    /// A learner's launch into a platform course no instructor has opened the map in yet.
    case courseNotSetUp(String)
    /// The platform's account here was disabled by an admin.
    case accountDisabled
    /// The platform's keys could not be read.
    case platformUnavailable(String)

    var detail: String {
        switch self {
        case .unknownPlatform(let detail), .invalidToken(let detail), .invalidMessage(let detail), .platformUnavailable(let detail): detail
        case .unknownDeployment(let id): "deployment \(id) is not registered"
        case .expired: "the launch's state is unknown, used or expired"
        case .otherBrowser: "the launch came without the cookie its login initiation set: another browser, or another site"
        case .anonymous: "the launch names nobody (no sub)"
        case .noContext: "the launch names no course (no context)"
        case .deepLinkingForInstructors: "a Deep Linking request from someone who does not teach the course"
        case .courseNotSetUp(let context): "no course is linked to context \(context) yet"
        case .accountDisabled: "the account is disabled"
        }
    }
}

/// A link's custom parameters: a map of text. Platforms send numbers or booleans at times; those,
/// and anything else not text, are left out rather than failing the launch.
struct LTICustom: Codable, Sendable, Equatable {
    var values: [String: String]

    init(_ values: [String: String]) { self.values = values }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        var values: [String: String] = [:]
        for key in container.allKeys {
            if let text = try? container.decode(String.self, forKey: key) { values[key.stringValue] = text }
        }
        self.values = values
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (name, value) in values { try container.encode(value, forKey: AnyKey(stringValue: name)) }
    }

    subscript(name: String) -> String? { values[name] }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
