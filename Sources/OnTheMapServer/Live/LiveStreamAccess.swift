import OnTheMapModel

/// Whether a stream of a course's live map may go on, asked at each of its heartbeats: the
/// access check ran once, when it opened, and a stream lasts for hours. A course made members-only
/// (on any instance: the directory reads it again within seconds), or a reader taken out of it,
/// stops reaching them by the next heartbeat: the stream ends with `reconnect`, and opening it
/// again is refused as any request would be. So does a change of the names the reader sees
/// (`namesShown`): the stream opened again carries them as they are now. A deleted course's
/// streams end with `reload`.
///
/// A class: a stream holds it for hours in its task's frames, where a reference takes less room.
final class LiveStreamAccess: Sendable {
    enum Answer: Sendable {
        case allowed
        case refused
        case courseDeleted
    }

    /// The course as it was when the stream opened.
    let course: Course
    /// Who opened it; nil for nobody logged in.
    let reader: Account?
    /// The names the reader sees on the stream (`NamesForReader`), as when it opened.
    let names: Course.NamesShown
    let rules: CourseAccess
    let directory: CourseDirectory

    init(course: Course, reader: Account?, names: Course.NamesShown, rules: CourseAccess, directory: CourseDirectory) {
        self.course = course
        self.reader = reader
        self.names = names
        self.rules = rules
        self.directory = directory
    }

    func ask() async -> Answer {
        do {
            guard let now = try await directory.course(course.slug), now.id == course.id else { return .courseDeleted }
            guard try await rules.may(.read, on: now, account: reader) else { return .refused }
            // Names shown otherwise than at the opening: open again (for a member, nothing changes).
            return now.namesShown == course.namesShown ? .allowed : .refused
        } catch {
            // The database away: the stream goes on, and the hub's own fault handling says so.
            return .allowed
        }
    }
}
