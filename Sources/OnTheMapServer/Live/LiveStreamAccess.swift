import OnTheMapModel

/// Whether a stream of a course's live map may go on, asked at each of its heartbeats: the
/// access check ran once, when it opened, and a stream lasts for hours. A course made members-only
/// (on any instance: the directory reads it again within seconds), or a reader taken out of it,
/// stops reaching them by the next heartbeat: the stream ends with `reconnect`, and opening it
/// again is refused as any request would be. A deleted course's streams end with `reload`.
struct LiveStreamAccess: Sendable {
    enum Answer: Sendable {
        case allowed
        case refused
        case courseDeleted
    }

    /// The course as it was when the stream opened.
    let course: Course
    /// Who opened it; nil for nobody logged in.
    let reader: Account?
    let rules: CourseAccess
    let directory: CourseDirectory

    func ask() async -> Answer {
        do {
            guard let now = try await directory.course(course.slug), now.id == course.id else { return .courseDeleted }
            return try await rules.may(.read, on: now, account: reader) ? .allowed : .refused
        } catch {
            // The database away: the stream goes on, and the hub's own fault handling says so.
            return .allowed
        }
    }
}
