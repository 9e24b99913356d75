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

    let issuer: IssuerClaim
    /// Absent in an anonymous launch, which this tool refuses: a pin needs a person.
    let subject: SubjectClaim?
    let audience: AudienceClaim
    let expires: ExpirationClaim
    let issuedAt: IssuedAtClaim
    let authorizedPresenter: String?
    let nonce: String?
    let email: String?
    let name: String?
    let givenName: String?
    let familyName: String?
    let messageType: String?
    let version: String?
    let deploymentID: String?
    let roles: [String]?
    let context: Context?
    let resourceLink: ResourceLink?
    let targetLinkURI: String?

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

    /// Whether the launcher teaches the platform's course: an instructor, a teaching assistant or
    /// an administrator of it or of the platform (LTI Core A.2), else a learner.
    var teaches: Bool {
        let teaching = ["Instructor", "TeachingAssistant", "Administrator"]
        return (roles ?? []).contains { role in
            // Full URIs (…/membership#Instructor, …/institution/person#Administrator), the
            // sub-roles (…/membership/Instructor#TeachingAssistant) and LTI 1.1's short names.
            let name = role.split(whereSeparator: { $0 == "#" || $0 == "/" }).last.map(String.init) ?? role
            return teaching.contains(name)
        }
    }
}

/// Why a launch from a platform did not open a map. Each is shown as a page that says what to do;
/// `detail` is for the server's log.
enum LTILaunchFailure: Error, Equatable {
    /// No registration has this issuer and client id.
    case unknownPlatform(String)
    /// The launch's `state` is unknown, expired or used: the launch was replayed, or took too long.
    case expired
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
    /// A Deep Linking request, not answered yet.
    case deepLinkingNotYet
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
        case .anonymous: "the launch names nobody (no sub)"
        case .noContext: "the launch names no course (no context)"
        case .deepLinkingNotYet: "a Deep Linking request, which this tool does not answer yet"
        case .courseNotSetUp(let context): "no course is linked to context \(context) yet"
        case .accountDisabled: "the account is disabled"
        }
    }
}
