import Foundation
import OnTheMapModel
import OnTheMapStore

/// What an operator does to set LTI 1.3 up (`onthemap lti …`; README, "Launched from a learning
/// platform"): register each platform with the values it shows for this tool, and read the values
/// the platform asks for in return. The rules are here: every URL https (plain http only to this
/// machine, for a platform run in development or tests), a client id and an issuer given, at
/// least one deployment.
public struct LTIRegistration: Sendable {
    let store: any LTIStore
    let keys: LTIToolKeys

    public init(store: any LTIStore, secret: ServerSecret, clock: WallClock = .system) {
        self.store = store
        self.keys = LTIToolKeys(store: store, secret: secret, clock: clock)
    }

    /// A registration refused, in the words of the command's options.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// What the platform told the operator about itself.
    public struct PlatformValues: Sendable {
        public var name: String
        public var issuer: String
        public var clientID: String
        public var deploymentIDs: [String]
        public var authorizationURL: String
        public var jwksURL: String
        public var tokenURL: String

        public init(
            name: String, issuer: String, clientID: String, deploymentIDs: [String], authorizationURL: String, jwksURL: String, tokenURL: String
        ) {
            self.name = name
            self.issuer = issuer
            self.clientID = clientID
            self.deploymentIDs = deploymentIDs
            self.authorizationURL = authorizationURL
            self.jwksURL = jwksURL
            self.tokenURL = tokenURL
        }
    }

    /// Registers a platform; `admin`, when an admin did it from the admin area, is in the audit log with it.
    public func add(_ values: PlatformValues, by admin: Account? = nil) async throws -> LTIPlatform {
        func required(_ value: String, _ option: String) throws -> String {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.utf8.count <= 1000, !trimmed.contains("\u{0}") else { throw Invalid(description: "\(option) is empty or not text") }
            return trimmed
        }
        func endpoint(_ value: String, _ option: String) throws -> String {
            let text = try required(value, option)
            guard let url = URL(string: text), SignInProvider.isAllowedEndpoint(url) else {
                throw Invalid(description: "\(option) must be an https URL (http only to this machine): \(text)")
            }
            return text
        }
        let deployments = try values.deploymentIDs.map { try required($0, "--deployment") }
        guard !deployments.isEmpty else { throw Invalid(description: "give the platform's deployment id with --deployment (one or more)") }
        let platform = LTIPlatform(
            issuer: try required(values.issuer, "--issuer"), clientID: try required(values.clientID, "--client-id"),
            name: try required(values.name.isEmpty ? values.issuer : values.name, "--name"),
            authorizationURL: try endpoint(values.authorizationURL, "--authorization-url"), jwksURL: try endpoint(values.jwksURL, "--jwks-url"),
            tokenURL: try endpoint(values.tokenURL, "--token-url"), deploymentIDs: Array(Set(deployments)).sorted(),
            createdAt: WallClock.system.nowMillis())
        do {
            let entry = admin.map { audit($0, .addPlatform, target: platform.issuer, detail: "\(platform.name): \(platform.issuer), client id \(platform.clientID)") }
            return try await store.addPlatform(platform, audit: entry)
        } catch StoreError.keyTaken {
            throw Invalid(description: "\(platform.issuer) is registered with client id \(platform.clientID) already")
        }
    }

    public func platforms() async throws -> [LTIPlatform] { try await store.platforms() }

    public func addDeployment(_ deploymentID: String, toPlatform id: Int64, by admin: Account? = nil) async throws -> Bool {
        guard let platform = try await store.platform(id: id) else { throw Invalid(description: "no platform has the id \(id)") }
        let trimmed = deploymentID.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 1000, !trimmed.contains("\u{0}") else { throw Invalid(description: "the deployment id is empty") }
        let entry = admin.map { audit($0, .addDeployment, target: platform.issuer, detail: "\(platform.name): deployment \(trimmed)") }
        return try await store.addDeployment(trimmed, toPlatform: id, audit: entry)
    }

    public func remove(platform id: Int64, by admin: Account? = nil) async throws -> Bool {
        let platform = try await store.platform(id: id)
        let entry = admin.map { audit($0, .removePlatform, target: platform?.issuer ?? "\(id)", detail: platform.map { "\($0.name): \($0.issuer)" } ?? "") }
        return try await store.removePlatform(id: id, audit: entry)
    }

    private func audit(_ admin: Account, _ action: AuditEntry.Action, target: String, detail: String) -> AuditEntry {
        AuditEntry(at: WallClock.system.nowMillis(), actorKey: admin.key, actorEmail: admin.email, action: action, target: target, detail: detail)
    }

    /// The tool's keys, the one that signs first: id, made, retired.
    public func toolKeys() async throws -> [(kid: String, createdAt: Int64, signs: Bool)] {
        _ = try await keys.keys()
        return try await store.toolKeys().map { ($0.kid, $0.createdAt, $0.retiredAt == nil) }
    }

    /// A new signing key; the one before stays published for a week. Returns the new key's id.
    public func rotateToolKey(by admin: Account? = nil) async throws -> String {
        _ = try await keys.keys()
        return try await keys.rotate(audit: admin.map { audit($0, .rotateToolKey, target: "lti", detail: "a new signing key") })
    }

    /// What a platform asks of the tool when the operator adds it, for a server at `origin`.
    public static func toolValues(origin: String) -> [(name: String, value: String)] {
        [
            ("Login initiation URL (OpenID Connect)", origin + LTIPaths.login),
            ("Redirect / launch URL", origin + LTIPaths.launch),
            ("Deep linking URL", origin + LTIPaths.launch),
            ("Public keyset URL (JWKS)", origin + LTIPaths.keySet),
            ("Target link URI", origin + LTIPaths.launch),
        ]
    }
}

/// Where the tool's LTI endpoints are.
enum LTIPaths {
    static let login = "/lti/login"
    static let launch = "/lti/launch"
    static let keySet = "/lti/jwks"
    static let window = "/lti/window"
    static let deepLink = "/lti/deep-link"
}
