import Hummingbird

/// Where a course's families are mounted: the compatibility families (the Udacity session and
/// users, the three location families and the live stream) serve the default course at the root,
/// byte for byte as the old backend did, and are registered by one function (`addCourseFamilies`)
/// for every mount, so that no family's routes are written twice.
struct CourseMount: Sendable {
    /// Put before every operation's path (nothing at the root).
    let prefix: String

    /// The default course, at today's paths.
    static let root = CourseMount(prefix: "")
}
