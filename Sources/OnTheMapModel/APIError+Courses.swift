extension APIError {
    /// `/c/{slug}/…` names no course.
    public static let courseNotFound = APIError.notFound("No course has this address.")

    /// A session without a place in the course asked for something only its members may.
    public static let notACourseMember = APIError.forbidden(
        "This account is not a member of this course. Ask its instructor for the invite link.")

    /// A write to an archived course.
    public static let courseArchived = APIError.forbidden("This course is archived: its map can be read but no longer changed.")
}

extension APIError {
    /// A slug that is not 2 to 48 lower-case letters, digits and single hyphens.
    public static let invalidCourseSlug = APIError.validation(
        "slug", "A course's address must be 2 to 48 lower-case letters, digits and single hyphens, such as cs101-spring.")

    /// A title that is empty or too long.
    public static let invalidCourseTitle = APIError.validation("title", "A course's title must be 1 to \(Course.maxTitleLength) characters.")

    /// Another course has the slug.
    public static let courseSlugTaken = APIError(
        status: 409, code: ParseErrorCode.operationForbidden, message: "Another course already has this address; choose another.",
        parameter: "slug")

    /// The change would leave a course without an instructor.
    public static let lastInstructor = APIError(
        status: 409, code: ParseErrorCode.operationForbidden,
        message: "A course keeps at least one instructor: make someone else an instructor first.")

    /// An invite link that is switched off, turned over, or was never this course's.
    public static let inviteNotValid = APIError.forbidden(
        "This invite link no longer works. Ask your instructor for the course's current link.")

    /// A change of a course that only its instructors (and the server's admins) may make.
    public static let instructorsOnly = APIError.forbidden("Only this course's instructors may do this.")

    /// The default course is every account's and is served at the old paths: it is never archived or deleted.
    public static let defaultCourseStays = APIError.forbidden("The default course cannot be archived or deleted.")

    /// A deletion whose confirmation does not name the course.
    public static let deletionNotConfirmed = APIError.validation(
        "confirm", "To delete a course with its pins, confirm by giving its address (its slug) exactly.")
}
