import Hummingbird
import OnTheMapModel

/// Where a course's families are mounted: the compatibility families (the Udacity session and
/// users, the three location families and the live stream) serve the default course at the root,
/// byte for byte as the old backend did, and every course under `/c/{slug}/`, so that an app is
/// pointed at a course by its base URL alone. One function (`addCourseFamilies`) registers them
/// for every mount, so that no family's routes are written twice.
struct CourseMount: Sendable {
    /// Put before every operation's path (nothing at the root).
    let prefix: String
    /// Finds the course the prefix's parameter names; nil at the root.
    let directory: CourseDirectory?

    /// The default course, at today's paths.
    static let root = CourseMount(prefix: "", directory: nil)

    /// Every course, at `/c/{slug}/`, found by `directory`.
    static func named(by directory: CourseDirectory) -> CourseMount {
        CourseMount(prefix: namedPrefix, directory: directory)
    }

    /// The route parameter that holds the slug.
    static let parameter = "course"
    /// Every course's prefix, in the router's syntax.
    static let namedPrefix = "/c/:" + parameter
    /// The same as the router names it in a route's pattern (metrics, the log): `/c/{course}`.
    static let namedRoutePrefix = "/c/{" + parameter + "}"

    /// The path a course's families are under.
    static func path(of slug: CourseSlug) -> String { "/c/" + slug.rawValue }
}
