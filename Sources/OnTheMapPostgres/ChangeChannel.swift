import Foundation
import OnTheMapModel
import PostgresNIO

/// The `LISTEN/NOTIFY` channel on which instances tell each other that locations changed. One per
/// schema, so that deployments sharing a database do not wake each other. A notification carries
/// the sending instance's id, so that an instance skips its own (it has announced them already),
/// then the courses whose pins changed (`"<id> 1,7"`), so that the others empty only those courses'
/// cached lists. Without courses (`"<id>"`, as instances from before courses send) it is every course.
struct ChangeChannel: Sendable {
    let name: String
    let instanceID: String
    /// More courses than this in one notification are sent as "every course": the payload stays
    /// far below PostgreSQL's 8000 bytes.
    static let maxCoursesNamed = 100

    init(schema: String?, instanceID: String = UUID().uuidString) {
        name = schema.map { "onthemap_\($0)" } ?? "onthemap"
        self.instanceID = instanceID
    }

    /// Sent on its own once writes to `courses` (nil: any) have committed (see `CommitAnnouncer`).
    func notifyQuery(courses: Set<CourseID>?) -> PostgresQuery {
        "SELECT pg_notify(\(name), \(payload(courses: courses)))"
    }

    func payload(courses: Set<CourseID>?) -> String {
        guard let courses, !courses.isEmpty, courses.count <= Self.maxCoursesNamed else { return instanceID }
        return instanceID + " " + courses.map { String($0.rawValue) }.sorted().joined(separator: ",")
    }

    /// Sent once a write that changed the sessions of `accounts` (nil: of any account) has
    /// committed (`SessionCache`): `"<id> sessions"` or `"<id> sessions <key>,<key>"`. Instances from
    /// before the cache read it as a change of unknown course, which costs them a cached list.
    func sessionsNotifyQuery(accounts: Set<String>?) -> PostgresQuery {
        "SELECT pg_notify(\(name), \(sessionsPayload(accounts: accounts)))"
    }

    func sessionsPayload(accounts: Set<String>?) -> String {
        guard let accounts, !accounts.isEmpty, accounts.count <= Self.maxCoursesNamed else { return instanceID + " sessions" }
        return instanceID + " sessions " + accounts.sorted().joined(separator: ",")
    }

    /// The accounts whose sessions another instance's notification says changed: nil when it says
    /// nothing of sessions (or is this instance's own), `.some(nil)` for every account.
    func sessionsChanged(announcedBy payload: String) -> Set<String>?? {
        let parts = payload.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[1] == "sessions", parts[0] != instanceID else { return nil }
        guard parts.count == 3 else { return .some(nil) }
        return .some(Set(parts[2].split(separator: ",").map(String.init)))
    }

    /// What another instance's notification announces: nothing for this instance's own, nor for
    /// one about sessions, else a change in each course it names, or of unknown course when it
    /// names none (or cannot be read).
    func changes(announcedBy payload: String) -> [LocationChange.Kind] {
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard parts.first.map(String.init) != instanceID else { return [] }
        if parts.count == 2, parts[1] == "sessions" || parts[1].hasPrefix("sessions ") { return [] }
        guard parts.count == 2 else { return [.unknown] }
        let courses = parts[1].split(separator: ",").map { Int64($0).map(CourseID.init(rawValue:)) }
        guard !courses.isEmpty, !courses.contains(nil) else { return [.unknown] }
        return courses.compactMap { $0.map { .elsewhere(in: $0) } }
    }
}
