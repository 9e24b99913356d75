import Foundation
import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// `/v1/admin/lti…`: learning platforms registered from the admin area, as `onthemap lti` does
/// on the server (`LTIRegistration` holds the rules; README, "Launched from a learning platform").
/// Reading is for any admin; a change, which starts or stops launches from a whole platform, asks
/// for the password proved lately, as an account change does. Every change is in the audit log.
struct AdminLTIController: Sendable {
    let registration: LTIRegistration
    /// The tool's values are absolute URLs: none without `--public-url`.
    let publicURL: PublicURL?
    let confirmationSeconds: Int64
    let clock: WallClock

    func addRoutes(to admin: FamilyGroup) {
        admin.add(.adminLTI, overview)
        admin.add(.adminAddPlatform, addPlatform)
        admin.add(.adminAddDeployment, addDeployment)
        admin.add(.adminRemovePlatform, removePlatform)
        admin.add(.adminRotateToolKey, rotateKey)
    }

    /// The values a platform asks for, the registered platforms and the tool's keys.
    @Sendable func overview(_ request: Request, context: AppRequestContext) async throws -> Response {
        let values = publicURL.map { url in LTIRegistration.toolValues(origin: url.origin).map { ToolValueBody(name: $0.name, value: $0.value) } }
        return try JSONResponse.make(OverviewBody(
            toolValues: Nullable(values), platforms: try await registration.platforms().map(PlatformBody.init),
            keys: try await registration.toolKeys().map { KeyBody(kid: $0.kid, createdAt: WireTime.formatMillis($0.createdAt), signs: $0.signs) }))
    }

    /// `{name, issuer, clientId, deploymentIds, authorizationUrl, jwksUrl, tokenUrl}`.
    @Sendable func addPlatform(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try await context.admin(provedPasswordWithin: confirmationSeconds, clock: clock)
        guard let object = try await RequestJSON.value(of: request).object else { throw APIError.invalidJSON() }
        let allowed: Set<String> = ["name", "issuer", "clientId", "deploymentIds", "authorizationUrl", "jwksUrl", "tokenUrl"]
        if let unknown = object.keys.first(where: { !allowed.contains($0) }) {
            throw APIError.validation(unknown, "\(unknown) is not a platform's value; send \(allowed.sorted().joined(separator: ", ")).")
        }
        func text(_ name: String) throws -> String {
            guard let value = object[name] else { return "" }
            guard case .string(let text) = value else { throw APIError.incorrectType(name, expected: "text") }
            return text
        }
        guard case .array(let ids)? = object["deploymentIds"] else { throw APIError.incorrectType("deploymentIds", expected: "a list of deployment ids") }
        let deployments = try ids.map { id -> String in
            guard case .string(let text) = id else { throw APIError.incorrectType("deploymentIds", expected: "a list of deployment ids") }
            return text
        }
        let values = LTIRegistration.PlatformValues(
            name: try text("name"), issuer: try text("issuer"), clientID: try text("clientId"), deploymentIDs: deployments,
            authorizationURL: try text("authorizationUrl"), jwksURL: try text("jwksUrl"), tokenURL: try text("tokenUrl"))
        do {
            return try JSONResponse.make(PlatformBody(try await registration.add(values, by: admin)), status: .created)
        } catch let refused as LTIRegistration.Invalid {
            throw Self.refusal(refused)
        }
    }

    /// `{deploymentId}`: another deployment of the tool on a registered platform.
    @Sendable func addDeployment(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try await context.admin(provedPasswordWithin: confirmationSeconds, clock: clock)
        let id = try Self.platformID(context)
        let fields = try CourseFields(try await RequestJSON.value(of: request), allowed: ["deploymentId"], required: ["deploymentId"])
        do {
            _ = try await registration.addDeployment(try fields.string("deploymentId") ?? "", toPlatform: id, by: admin)
        } catch let refused as LTIRegistration.Invalid {
            throw Self.refusal(refused, parameter: "deploymentId")
        }
        guard let platform = try await registration.platforms().first(where: { $0.id == id }) else { throw APIError.ltiPlatformNotFound }
        return try JSONResponse.make(PlatformBody(platform))
    }

    /// The platform's launches stop; its courses, their members and pins stay.
    @Sendable func removePlatform(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try await context.admin(provedPasswordWithin: confirmationSeconds, clock: clock)
        guard try await registration.remove(platform: try Self.platformID(context), by: admin) else { throw APIError.ltiPlatformNotFound }
        return try JSONResponse.make([String: String]())
    }

    /// A new key signs; the one before stays published for a week.
    @Sendable func rotateKey(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try await context.admin(provedPasswordWithin: confirmationSeconds, clock: clock)
        return try JSONResponse.make(["kid": try await registration.rotateToolKey(by: admin)], status: .created)
    }

    private static func platformID(_ context: AppRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw APIError.ltiPlatformNotFound }
        return id
    }

    /// The registration's refusal, naming the field its words name (`--issuer` → `issuer`).
    private static func refusal(_ refused: LTIRegistration.Invalid, parameter: String? = nil) -> APIError {
        let options = ["--issuer": "issuer", "--client-id": "clientId", "--deployment": "deploymentIds", "--authorization-url": "authorizationUrl",
                       "--jwks-url": "jwksUrl", "--token-url": "tokenUrl", "--name": "name"]
        var message = refused.description
        var field = parameter ?? "issuer"
        for (option, name) in options where message.contains(option) {
            message = message.replacingOccurrences(of: option, with: name)
            if parameter == nil { field = name }
        }
        return APIError.validation(field, message.prefix(1).uppercased() + message.dropFirst() + ".")
    }

    struct ToolValueBody: Encodable {
        let name: String
        let value: String
    }

    struct PlatformBody: Encodable {
        let id: Int64
        let name: String
        let issuer: String
        let clientId: String
        let deploymentIds: [String]
        let authorizationUrl: String
        let jwksUrl: String
        let tokenUrl: String
        let createdAt: String

        init(_ platform: LTIPlatform) {
            id = platform.id
            name = platform.name
            issuer = platform.issuer
            clientId = platform.clientID
            deploymentIds = platform.deploymentIDs
            authorizationUrl = platform.authorizationURL
            jwksUrl = platform.jwksURL
            tokenUrl = platform.tokenURL
            createdAt = WireTime.formatMillis(platform.createdAt)
        }
    }

    struct KeyBody: Encodable {
        let kid: String
        let createdAt: String
        let signs: Bool
    }

    struct OverviewBody: Encodable {
        let toolValues: Nullable<[ToolValueBody]>
        let platforms: [PlatformBody]
        let keys: [KeyBody]
    }
}
