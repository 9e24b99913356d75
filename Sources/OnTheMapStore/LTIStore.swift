import OnTheMapModel

/// A learning platform the operator registered (LTI 1.3 Core, "Tool registration"): who it is
/// (`issuer`, and the `clientID` it gave this tool), where it signs its users in for the tool
/// (`authorizationURL`), publishes its keys (`jwksURL`) and gives the tool access tokens
/// (`tokenURL`), and the deployments of the tool it made.
public struct LTIPlatform: Sendable, Equatable {
    public var id: Int64
    public var issuer: String
    public var clientID: String
    /// What people call it ("Canvas at Example University").
    public var name: String
    public var authorizationURL: String
    public var jwksURL: String
    public var tokenURL: String
    public var deploymentIDs: [String]
    public var createdAt: Int64

    public init(
        id: Int64 = 0, issuer: String, clientID: String, name: String, authorizationURL: String, jwksURL: String, tokenURL: String,
        deploymentIDs: [String], createdAt: Int64
    ) {
        self.id = id
        self.issuer = issuer
        self.clientID = clientID
        self.name = name
        self.authorizationURL = authorizationURL
        self.jwksURL = jwksURL
        self.tokenURL = tokenURL
        self.deploymentIDs = deploymentIDs
        self.createdAt = createdAt
    }
}

/// One of the tool's signing keys: the private half sealed under the server's secret
/// (`sealedPrivateKey`, opened only by a server holding that secret). The newest key that is not
/// retired signs; retired keys stay published until they are dropped, so that a platform holding a
/// message signed just before a rotation can still check it.
public struct LTIToolKey: Sendable, Equatable {
    public var kid: String
    public var sealedPrivateKey: String
    public var createdAt: Int64
    public var retiredAt: Int64?

    public init(kid: String, sealedPrivateKey: String, createdAt: Int64, retiredAt: Int64? = nil) {
        self.kid = kid
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}

/// A platform course linked to a course here, with the services its latest launch named.
public struct LTICourseLink: Sendable, Equatable {
    public var platformID: Int64
    public var contextID: String
    public var courseID: CourseID
    /// Names and Role Provisioning Services: the platform course's member list.
    public var membershipsURL: String?
    /// Assignment and Grade Services: the platform course's line items.
    public var lineItemsURL: String?
    /// The line item the tool scores posting in; nil while grading is off.
    public var lineItemURL: String?

    public init(
        platformID: Int64, contextID: String, courseID: CourseID, membershipsURL: String? = nil, lineItemsURL: String? = nil,
        lineItemURL: String? = nil
    ) {
        self.platformID = platformID
        self.contextID = contextID
        self.courseID = courseID
        self.membershipsURL = membershipsURL
        self.lineItemsURL = lineItemsURL
        self.lineItemURL = lineItemURL
    }
}

/// LTI 1.3's data (migrations 18 and 19): the registered platforms, the tool's keys, and which platform
/// course is which course here.
public protocol LTIStore: Sendable {
    /// Registers a platform with its deployments, in one write. Throws `StoreError.keyTaken` when
    /// the issuer has a registration with that client id already.
    func addPlatform(_ platform: LTIPlatform, audit: AuditEntry?) async throws -> LTIPlatform
    /// Every registered platform, in the order they were added.
    func platforms() async throws -> [LTIPlatform]
    func platform(id: Int64) async throws -> LTIPlatform?
    /// The registration a launch names: by its issuer and client id.
    func platform(issuer: String, clientID: String) async throws -> LTIPlatform?
    /// Adds a deployment id to a platform; false when it had it.
    func addDeployment(_ deploymentID: String, toPlatform id: Int64, audit: AuditEntry?) async throws -> Bool
    /// Removes a platform with its deployments and its courses' links (the courses stay); false
    /// when there was none.
    func removePlatform(id: Int64, audit: AuditEntry?) async throws -> Bool

    /// The tool's keys, the newest first.
    func toolKeys() async throws -> [LTIToolKey]
    /// Adds `key` as the one that signs, retiring the one that signed before (at `key.createdAt`),
    /// and drops keys retired before `dropRetiredBefore`: one write.
    func rotateToolKey(to key: LTIToolKey, dropRetiredBefore: Int64, audit: AuditEntry?) async throws
    /// Adds `key` only when there is no key yet (two instances starting at once make one key);
    /// returns the keys as they then are, the newest first.
    func addFirstToolKey(_ key: LTIToolKey) async throws -> [LTIToolKey]

    /// The course here of a platform's course (its `context` claim's id).
    func course(platform: Int64, context: String) async throws -> CourseID?
    /// Links a platform's course to a course here; the link made first stays (false then).
    func link(platform: Int64, context: String, to course: CourseID) async throws -> Bool

    /// The platform courses linked to `course`.
    func links(of course: CourseID) async throws -> [LTICourseLink]
    /// Notes the services a launch from the platform course named; a nil leaves what was noted.
    func noteServices(platform: Int64, context: String, membershipsURL: String?, lineItemsURL: String?) async throws
    /// Sets the line item posting is scored in (nil: grading off).
    func setLineItem(platform: Int64, context: String, url: String?) async throws
}

/// The changes as the operator's command line makes them: no admin to record in the audit log.
extension LTIStore {
    public func addPlatform(_ platform: LTIPlatform) async throws -> LTIPlatform { try await addPlatform(platform, audit: nil) }
    public func addDeployment(_ deploymentID: String, toPlatform id: Int64) async throws -> Bool {
        try await addDeployment(deploymentID, toPlatform: id, audit: nil)
    }
    public func removePlatform(id: Int64) async throws -> Bool { try await removePlatform(id: id, audit: nil) }
    public func rotateToolKey(to key: LTIToolKey, dropRetiredBefore: Int64) async throws {
        try await rotateToolKey(to: key, dropRetiredBefore: dropRetiredBefore, audit: nil)
    }
}
