import OnTheMapModel

/// Which names a request's reader sees of a course's students. A course its instructor set to
/// `namesShown: initials` shows readers who are not its members (anyone with the link, a page that
/// frames its map) only initials; its members and the server's admins see full names. The root
/// paths always show full names: they are the old backend's, byte for byte.
enum NamesForReader {
    /// The names the request's reader sees: full, or initials only.
    static func names(_ context: AppRequestContext) async throws -> Course.NamesShown {
        guard let course = context.facts.mountedCourse, course.namesShown == .initials else { return .full }
        return try await names(in: course, caller: try await context.caller())
    }

    /// The names `caller` (nil: nobody logged in) sees in `course`.
    static func names(in course: Course, caller: Caller?) async throws -> Course.NamesShown {
        guard course.namesShown == .initials, let caller else { return course.namesShown }
        let isMember = caller.account.isAdmin || caller.courseRole != nil || course.everyoneJoins
        return isMember ? .full : .initials
    }

    /// The pin as a reader who sees `names` sees it.
    static func shown(_ location: StudentLocation, as names: Course.NamesShown) -> StudentLocation {
        names == .initials ? location.withInitials() : location
    }
}
