public import Foundation

/// A course: a class's own map on the server, at `/c/{slug}/`.
public struct Course: Sendable, Hashable, Identifiable {
    /// Who may read its map: its members (and the server's admins), or anyone with its address.
    public enum Visibility: String, Sendable, Hashable, CaseIterable { case members, link }
    /// How students' names show on its map to other students.
    public enum NamesShown: String, Sendable, Hashable { case full, initials }
    public enum Role: String, Sendable, Hashable { case student, instructor }

    /// The course's invite link, as its instructors (and the server's admins) see it.
    public struct Invite: Sendable, Hashable {
        /// Whether the link admits students now.
        public var isEnabled: Bool
        /// The link to hand out (`https://map.example.edu/c/cs101/join/…`), made absolute
        /// against the client's server when the server gives a path.
        public var link: URL
    }

    public var id: String { slug }
    /// Its address: `/c/{slug}/`.
    public var slug: String
    public var title: String
    public var visibility: Visibility
    public var namesShown: NamesShown
    /// Whether a student's pin waits for an instructor before others see it.
    public var approvalRequired: Bool
    /// An archived course's map can be read but takes no more posts.
    public var isArchived: Bool
    public var createdAt: Date
    /// The caller's role in it; nil when not a member.
    public var role: Role?
    /// Nil for anyone but its instructors and the server's admins.
    public var invite: Invite?
}

/// What joining a course with its invite did.
public enum CourseJoin: Sendable, Hashable {
    /// The account became a student of the course.
    case joined(Course)
    /// The account was a member already, and stays as it was.
    case alreadyMember(Course)

    public var course: Course {
        switch self {
        case .joined(let course), .alreadyMember(let course): course
        }
    }
}

/// An invite link's course and token. Instructors hand out `https://map.example.edu/c/cs101/join/{token}`;
/// opened in a browser it becomes the web client's `https://map.example.edu/#/join/cs101/{token}`.
/// Both are read; which server the link names is not checked (a link of another server holds a
/// token this one refuses, ``OnTheMapError/Kind/inviteNotValid``).
public struct InviteLink: Sendable, Hashable {
    public var slug: String
    public var token: String

    public init(slug: String, token: String) {
        self.slug = slug
        self.token = token
    }

    /// The course and token of an invite link, or nil when `link` is not one.
    public init?(_ link: URL) {
        let path = link.path.split(separator: "/").map(String.init)
        let fragment = (link.fragment ?? "").split(separator: "/").map(String.init)
        if path.count >= 4, path[path.count - 4] == "c", path[path.count - 2] == "join" {
            self.init(slug: path[path.count - 3], token: path[path.count - 1])
        } else if fragment.count == 3, fragment[0] == "join" {
            self.init(slug: fragment[1], token: fragment[2])
        } else {
            return nil
        }
    }
}
