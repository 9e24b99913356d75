/// A class's map: who may read it, whether it takes posts, how it shows names. The default course
/// (`CourseID.default`) is served at today's paths; every course also at `/c/{slug}/`.
public struct Course: Sendable, Equatable {
    public let id: CourseID
    public let slug: CourseSlug
    public var title: String
    /// Milliseconds.
    public let createdAt: Int64
    /// Set when an instructor archived it: its map stays readable and takes no more posts.
    public var archivedAt: Int64?
    public var visibility: Visibility
    public var namesShown: NamesShown
    public var approvalRequired: Bool
    /// Every new account becomes a member (the default course, as before courses).
    public var everyoneJoins: Bool
    /// Whether its invite link lets students join.
    public var inviteEnabled: Bool
    /// Which invite link is the live one: turning the link over moves it on (`CourseInvite`).
    public var inviteGeneration: Int64

    /// Who may read the map.
    public enum Visibility: String, Sendable, CaseIterable {
        /// Its members (and the server's admins) only: the default for a new course.
        case members
        /// Anyone who has its address (a course page, a projector).
        case link
    }

    /// How a reader who is not a member sees students' names.
    public enum NamesShown: String, Sendable, CaseIterable {
        case full
        case initials
    }

    public init(
        id: CourseID, slug: CourseSlug, title: String, createdAt: Int64, archivedAt: Int64? = nil, visibility: Visibility = .members,
        namesShown: NamesShown = .full, approvalRequired: Bool = false, everyoneJoins: Bool = false, inviteEnabled: Bool = false,
        inviteGeneration: Int64 = 0
    ) {
        self.id = id
        self.slug = slug
        self.title = title
        self.createdAt = createdAt
        self.archivedAt = archivedAt
        self.visibility = visibility
        self.namesShown = namesShown
        self.approvalRequired = approvalRequired
        self.everyoneJoins = everyoneJoins
        self.inviteEnabled = inviteEnabled
        self.inviteGeneration = inviteGeneration
    }

    public var isArchived: Bool { archivedAt != nil }

    /// A title is 1 to this many characters, after trimming.
    public static let maxTitleLength = 120

    /// `raw` trimmed, when it is a title: 1 to `maxTitleLength` characters.
    public static func title(_ raw: String) throws(APIError) -> String {
        let title = raw.trimmingWhitespace()
        guard (1...maxTitleLength).contains(title.count) else { throw .invalidCourseTitle }
        return title
    }

    /// Whether anyone may read its map without logging in. The default course always could: the
    /// old backend's lists needed no session, and its paths keep answering as they did.
    public var isReadableByAnyone: Bool { id == .default || visibility == .link }
}

/// A member's part in a course.
public enum CourseRole: String, Sendable, CaseIterable {
    case student
    /// Moderates the course: hides pins, answers reports, removes members.
    case instructor
}

/// A course's name in its paths (`/c/cs101-spring/`): 2 to 48 characters of lower-case ASCII
/// letters, digits and single hyphens between them, so that it reads the same in every address
/// and never needs escaping.
public struct CourseSlug: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public static let maxLength = 48

    /// nil for text that is not a slug (see the type's rule).
    public init?(rawValue: String) {
        guard (2...Self.maxLength).contains(rawValue.utf8.count),
              rawValue.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }),
              rawValue.first != "-", rawValue.last != "-", !rawValue.contains("--") else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
