import OnTheMapModel
import OnTheMapStore

/// `--course <slug>` of the commands that read or write one course's locations.
enum CourseOption {
    /// The course `slug` names, or the default course without one; a failure naming the slug.
    static func course(_ slug: String?, in store: SQLStore) async throws -> CourseID {
        guard let slug else { return .default }
        guard let parsed = CourseSlug(rawValue: slug), let course = try await store.course(slug: parsed) else {
            throw CommandFailure("no course has the slug \(slug) (onthemap course list shows them).")
        }
        return course.id
    }
}
