/// A person who can log in.
public struct Account: Sendable, Equatable {
    /// Udacity-style account key: decimal digits, opaque to clients.
    public var key: String
    /// Lowercased and trimmed.
    public var email: String
    public var firstName: String
    public var lastName: String
    /// bcrypt hash of the password.
    public var passwordHash: String
    /// Admins may update and delete any location.
    public var isAdmin: Bool
    /// Milliseconds since the epoch.
    public var createdAt: Int64
    /// When an admin disabled the account (milliseconds): it cannot log in and has no sessions.
    public var disabledAt: Int64?
    /// The last login or sign-up (milliseconds).
    public var lastLoginAt: Int64?

    public var isDisabled: Bool { disabledAt != nil }

    public init(
        key: String, email: String, firstName: String, lastName: String, passwordHash: String,
        isAdmin: Bool, createdAt: Int64, disabledAt: Int64? = nil, lastLoginAt: Int64? = nil
    ) {
        self.key = key
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.passwordHash = passwordHash
        self.isAdmin = isAdmin
        self.createdAt = createdAt
        self.disabledAt = disabledAt
        self.lastLoginAt = lastLoginAt
    }
}

/// A validated sign-up request (`POST /v1/accounts`).
public struct SignUp: Sendable, Equatable {
    public var email: String
    public var password: String
    public var firstName: String
    public var lastName: String

    public init(email: String, password: String, firstName: String, lastName: String) throws(APIError) {
        self.email = try Validation.email(email)
        self.password = try Validation.password(password)
        self.firstName = try Validation.personName(firstName, field: "firstName")
        self.lastName = try Validation.personName(lastName, field: "lastName")
    }

    /// Reads `{"email", "password", "firstName", "lastName"}`.
    public static func parse(_ body: JSONValue) throws(APIError) -> SignUp {
        guard let members = body.object else { throw .invalidJSON("The request body must be a JSON object.") }
        func text(_ key: String) throws(APIError) -> String {
            switch members[key] {
            case .string(let value): return value
            case nil, .null: throw .validation(key, "\(key) is required.")
            default: throw .incorrectType(key, expected: "a string")
            }
        }
        return try SignUp(email: try text("email"), password: try text("password"),
                          firstName: try text("firstName"), lastName: try text("lastName"))
    }
}
