/// Why a student reports a pin: a short, fixed list, so admins can sort reports at a glance.
public enum ReportReason: String, Sendable, CaseIterable, Codable {
    case spam
    case offensive
    case personalInformation = "personal-information"
    case wrongPlace = "wrong-place"
    case other

    /// The reason a request names, or a 400 that lists the accepted ones.
    public static func parse(_ value: JSONValue?) throws(APIError) -> ReportReason {
        guard case .string(let text)? = value else {
            throw .validation("reason", "reason must be one of \(allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard let reason = ReportReason(rawValue: text) else {
            throw .validation("reason", "reason must be one of \(allCases.map(\.rawValue).joined(separator: ", ")); got \"\(text.prefix(40))\".")
        }
        return reason
    }
}

/// A student's report of a pin, open until an admin resolves it.
public struct Report: Sendable, Equatable {
    public var id: Int64
    public var objectId: String
    /// The reported pin's course.
    public var course: CourseID
    public var reporterKey: String
    public var reason: ReportReason
    /// Milliseconds.
    public var createdAt: Int64
    public var resolvedAt: Int64?
    /// The admin's account key.
    public var resolvedBy: String?
    /// `hidden`, `deleted` or `dismissed`.
    public var resolution: String?

    public init(id: Int64, objectId: String, course: CourseID = .default, reporterKey: String, reason: ReportReason, createdAt: Int64,
                resolvedAt: Int64? = nil, resolvedBy: String? = nil, resolution: String? = nil) {
        self.id = id
        self.objectId = objectId
        self.course = course
        self.reporterKey = reporterKey
        self.reason = reason
        self.createdAt = createdAt
        self.resolvedAt = resolvedAt
        self.resolvedBy = resolvedBy
        self.resolution = resolution
    }
}

/// One admin action, recorded in the same transaction as the action itself: who, what, on what, when.
public struct AuditEntry: Sendable, Equatable {
    public enum Action: String, Sendable, CaseIterable {
        case hideLocation = "hide-location"
        case showLocation = "show-location"
        /// A pin that waited for an instructor's approval (courses that ask for it) shown, or not.
        case approveLocation = "approve-location"
        case declineLocation = "decline-location"
        case deleteLocation = "delete-location"
        case disableAccount = "disable-account"
        case enableAccount = "enable-account"
        case grantAdmin = "grant-admin"
        case revokeAdmin = "revoke-admin"
        case issuePasswordReset = "issue-password-reset"
        case dismissReports = "dismiss-reports"
        // A course's own changes, by its instructors, the server's admins or its operator.
        case createCourse = "create-course"
        case changeCourse = "change-course"
        case deleteCourse = "delete-course"
        case changeInvite = "change-invite"
        case addMembers = "add-members"
        case removeMember = "remove-member"
        // A learning platform registered from the admin area (LTI 1.3), and the tool's key.
        case addPlatform = "add-lti-platform"
        case addDeployment = "add-lti-deployment"
        case removePlatform = "remove-lti-platform"
        case rotateToolKey = "rotate-lti-key"
    }

    public var id: Int64
    /// Milliseconds.
    public var at: Int64
    /// The admin's account key (nil once that account is deleted) and email (kept for the record).
    public var actorKey: String?
    public var actorEmail: String
    public var action: Action
    /// An objectId or an account key.
    public var target: String
    /// What the target was, in words (a pin's place and owner, an account's email).
    public var detail: String
    /// The course of the pin acted on; nil for an action on an account, which is no course's.
    public var course: CourseID?

    public init(
        id: Int64 = 0, at: Int64, actorKey: String?, actorEmail: String, action: Action, target: String, detail: String, course: CourseID? = nil
    ) {
        self.course = course
        self.id = id
        self.at = at
        self.actorKey = actorKey
        self.actorEmail = actorEmail
        self.action = action
        self.target = target
        self.detail = detail
    }
}
