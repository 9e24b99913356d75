import OnTheMapModel

/// Courses and who belongs to them (migrations 15 and 16). Who may do what to a course is decided
/// in one place above the store (the server's `CourseAccess`); the store keeps the data, and the
/// one rule that needs the data to hold: a course keeps at least one instructor.
/// The writes that change a course itself take its audit entry (`audit`; nil writes none), which is
/// written in the same transaction: the log never misses a change that happened, nor holds one that
/// did not.
public protocol CourseStore: Sendable {
    func course(slug: CourseSlug) async throws -> Course?
    func course(id: CourseID) async throws -> Course?
    /// Every course, the default one first, then by slug.
    func allCourses() async throws -> [Course]
    /// The courses the account belongs to, with its role in each, the default one first, then by slug.
    func courses(of accountKey: String) async throws -> [(course: Course, role: CourseRole)]
    /// Makes a course with `instructorKey` as its first instructor, in one write. Throws
    /// `StoreError.slugTaken` when another course has the slug.
    func createCourse(slug: CourseSlug, title: String, instructorKey: String, now: Int64, audit: AuditEntry?) async throws -> Course
    /// Writes the course's title and settings (not its id, slug, creation or invite link).
    func updateCourse(_ course: Course, audit: AuditEntry?) async throws
    /// Deletes the course with its pins, their events and reports, its members and class list,
    /// in one write; the audit log keeps its entries. False when there was no such course. The
    /// default course is never deleted.
    func deleteCourse(_ course: CourseID, audit: AuditEntry?) async throws -> Bool
    /// Lets the invite link work or not; `turnOver` makes a new link (the old one stops working).
    /// Nil when there is no such course.
    func setInvite(of course: CourseID, enabled: Bool, turnOver: Bool, audit: AuditEntry?) async throws -> Course?
    /// Writes an audit entry on its own, for a change made of several writes (a class list added).
    func record(_ audit: AuditEntry) async throws
    /// Makes the account a member in `role`, or changes its role; false when it had that role.
    /// Throws `StoreError.lastInstructor` rather than leave the course without an instructor.
    @discardableResult
    func setMember(_ accountKey: String, of course: CourseID, role: CourseRole, now: Int64) async throws -> Bool
    /// Takes the account out of the course; false when it was not a member. Throws
    /// `StoreError.lastInstructor` for the course's only instructor.
    func removeMember(_ accountKey: String, from course: CourseID) async throws -> Bool
    /// The account's role in the course, nil when it is not a member.
    func role(of accountKey: String, in course: CourseID) async throws -> CourseRole?
    /// A page of the course's members, instructors first, then by name, each with their pin there.
    func members(of course: CourseID, limit: Int, skip: Int) async throws -> [CourseMember]
    /// Names a student (by normalised email) who has no account yet: they join in `role` when an
    /// account with that email is made. False when the email was already waiting in that role.
    @discardableResult
    func addPendingMember(email: String, to course: CourseID, role: CourseRole, now: Int64) async throws -> Bool
    /// The emails waiting to join the course, by email.
    func pendingMembers(of course: CourseID) async throws -> [PendingMember]
    /// Forgets a waiting email; false when it was not waiting.
    func removePendingMember(email: String, from course: CourseID) async throws -> Bool
}

/// A member of a course as its roster shows them: who, in which role, since when, and their pin
/// in the course (hidden or not), if they posted one.
public struct CourseMember: Sendable, Equatable {
    public var account: Account
    public var role: CourseRole
    /// Milliseconds.
    public var joinedAt: Int64
    public var pin: OwnedLocation?

    public init(account: Account, role: CourseRole, joinedAt: Int64, pin: OwnedLocation?) {
        self.account = account
        self.role = role
        self.joinedAt = joinedAt
        self.pin = pin
    }
}

/// A student named on a class list before they had an account.
public struct PendingMember: Sendable, Equatable {
    public var email: String
    public var role: CourseRole
    /// Milliseconds.
    public var addedAt: Int64

    public init(email: String, role: CourseRole, addedAt: Int64) {
        self.email = email
        self.role = role
        self.addedAt = addedAt
    }
}

extension CourseStore {
    public func createCourse(slug: CourseSlug, title: String, instructorKey: String, now: Int64) async throws -> Course {
        try await createCourse(slug: slug, title: title, instructorKey: instructorKey, now: now, audit: nil)
    }

    public func updateCourse(_ course: Course) async throws { try await updateCourse(course, audit: nil) }

    public func deleteCourse(_ course: CourseID) async throws -> Bool { try await deleteCourse(course, audit: nil) }

    public func setInvite(of course: CourseID, enabled: Bool, turnOver: Bool) async throws -> Course? {
        try await setInvite(of: course, enabled: enabled, turnOver: turnOver, audit: nil)
    }
}
