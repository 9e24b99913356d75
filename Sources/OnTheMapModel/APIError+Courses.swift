extension APIError {
    /// `/c/{slug}/…` names no course.
    public static let courseNotFound = APIError.notFound("No course has this address.")

    /// A session without a place in the course asked for something only its members may.
    public static let notACourseMember = APIError.forbidden(
        "This account is not a member of this course. Ask its instructor for the invite link.")

    /// A write to an archived course.
    public static let courseArchived = APIError.forbidden("This course is archived: its map can be read but no longer changed.")
}
