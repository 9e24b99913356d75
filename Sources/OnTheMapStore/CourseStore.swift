import OnTheMapModel

/// Courses and who belongs to them (migration 15). Who may do what to a course is decided in one
/// place above the store (the server's `CourseAccess`); the store keeps the data.
public protocol CourseStore: Sendable {
    func course(slug: CourseSlug) async throws -> Course?
    func course(id: CourseID) async throws -> Course?
    /// Makes a course with `instructorKey` as its first instructor, in one write. Throws
    /// `StoreError.slugTaken` when another course has the slug.
    func createCourse(slug: CourseSlug, title: String, instructorKey: String, now: Int64) async throws -> Course
    /// Writes the course's title and settings (everything but its id, slug and creation).
    func updateCourse(_ course: Course) async throws
    /// Makes the account a member in `role`, or changes its role; false when it had that role.
    @discardableResult
    func setMember(_ accountKey: String, of course: CourseID, role: CourseRole, now: Int64) async throws -> Bool
    /// The account's role in the course, nil when it is not a member.
    func role(of accountKey: String, in course: CourseID) async throws -> CourseRole?
}
