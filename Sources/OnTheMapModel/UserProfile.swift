/// Public user data in Udacity's shape (`GET /v1/users/{id}`). Strict clients decode every one of
/// these fields as non-optional, so all are always present with empty defaults.
public struct UserProfile: Encodable, Sendable, Equatable {
    public struct Email: Encodable, Sendable, Equatable {
        public var address: String
        public var verified: Bool
        public var verificationCodeSent: Bool

        enum CodingKeys: String, CodingKey {
            case address
            case verified = "_verified"
            case verificationCodeSent = "_verification_code_sent"
        }
    }

    /// Encodes as `{}`.
    public struct Empty: Encodable, Sendable, Equatable {}

    public var firstName: String
    public var lastName: String
    public var nickname: String
    public var key: String
    public var email: Email
    public var hasPassword = true
    public var registered = true
    public var employerSharing = false
    public var socialAccounts: [String] = []
    public var cohortKeys: [String] = []
    public var badges: [String] = []
    public var principals: [String] = []
    public var enrollments: [String] = []
    public var externalAccounts: [String] = []
    public var tags: [String] = []
    public var affiliateProfiles: [String] = []
    public var memberships: [String] = []
    public var guardValue = Empty()
    public var imageURL = ""

    enum CodingKeys: String, CodingKey {
        case firstName = "first_name", lastName = "last_name", nickname, key, email
        case hasPassword = "_has_password", registered = "_registered", employerSharing = "employer_sharing"
        case socialAccounts = "social_accounts", cohortKeys = "_cohort_keys", badges = "_badges"
        case principals = "_principals", enrollments = "_enrollments", externalAccounts = "external_accounts"
        case tags, affiliateProfiles = "_affiliate_profiles", memberships = "_memberships"
        case guardValue = "guard", imageURL = "_image_url"
    }

    /// The profile of `account` as seen by a caller; the address is shown only to its owner.
    public init(account: Account, showEmail: Bool) {
        firstName = account.firstName
        lastName = account.lastName
        nickname = "\(account.firstName) \(account.lastName)".trimmingWhitespace()
        key = account.key
        // False for an account made by signing in with a provider, until it sets a password.
        hasPassword = account.hasPassword
        email = Email(address: showEmail ? account.email : "", verified: false, verificationCodeSent: false)
    }
}

/// `GET /v1/users/{id}`: the profile at top level and again under `"user"`, since clients exist for
/// both shapes and decoders ignore keys they do not know.
public struct V1UserResponse: Encodable, Sendable {
    public var profile: UserProfile

    public init(profile: UserProfile) { self.profile = profile }

    private enum CodingKeys: String, CodingKey { case user }

    public func encode(to encoder: any Encoder) throws {
        try profile.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile, forKey: .user)
    }
}

/// `GET /api/users/{id}`: the legacy shape `{"user": {…}}`.
public struct LegacyUserResponse: Encodable, Sendable {
    public var user: UserProfile

    public init(profile: UserProfile) { self.user = profile }
}
