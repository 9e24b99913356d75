/// A launch from a learning platform that opened no map (LTI 1.3). These are answered as a page,
/// not JSON: the browser came from the platform (`LTIPage`), so each message says what to do.
extension APIError {
    /// `/lti/login` or `/lti/launch` on a server without `--public-url`.
    public static let ltiNotSetUp = APIError(
        status: 404, code: ParseErrorCode.objectNotFound,
        message: "The server needs its public address (--public-url) for launches from a learning platform.")

    /// The platform (its issuer and client id) is not registered.
    public static let ltiUnknownPlatform = APIError(
        status: 400, code: ParseErrorCode.operationForbidden,
        message: "On The Map does not know the platform that sent you. Ask the server's operator to register it.")

    /// The launch's state is unknown, used or expired.
    public static let ltiLaunchExpired = APIError(
        status: 400, code: ParseErrorCode.operationForbidden,
        message: "Open On The Map again from your course: a launch works once, within a few minutes.")

    /// The id_token failed a check, or the message is not one this tool answers.
    public static let ltiLaunchNotChecked = APIError(
        status: 400, code: ParseErrorCode.operationForbidden,
        message: "The platform's message did not pass On The Map's checks. Open it again from your course; if this stays, tell your instructor.")

    /// A learner's Deep Linking request (the platform's content picker).
    public static let ltiDeepLinkingForInstructors = APIError(
        status: 403, code: ParseErrorCode.operationForbidden,
        message: "Only the course's instructors add On The Map to it. Open the map from the link your instructor added.")

    /// A launch that names no course.
    public static let ltiNoCourse = APIError(
        status: 400, code: ParseErrorCode.operationForbidden,
        message: "The platform did not say which course you came from. Open On The Map from inside a course.")

    /// A learner's launch into a platform course no instructor has opened the map in.
    public static let ltiCourseNotSetUp = APIError(
        status: 404, code: ParseErrorCode.objectNotFound,
        message: "The course's map is made the first time an instructor opens On The Map from the course. Try again once they have.")

    /// The platform's keys could not be read.
    public static let ltiPlatformUnavailable = APIError(
        status: 502, code: ParseErrorCode.internalServerError, message: "On The Map could not read the platform's keys. Try again in a moment.")
}

/// A course's grading through its learning platforms (Assignment and Grade Services).
extension APIError {
    /// Grading asked of a course no platform course with a grade book is linked to.
    public static let ltiGradesNotOffered = APIError.validation(
        "gradePosting", "No learning platform course linked to this map offers its grade book: open the map from the platform's course first.")

    /// The platform's grade book did not answer, or refused the tool.
    public static let ltiGradeBookUnavailable = APIError(
        status: 502, code: ParseErrorCode.internalServerError,
        message: "The learning platform's grade book did not answer. Try again in a minute.")
}

/// The admin area's registration of learning platforms.
extension APIError {
    public static let ltiPlatformNotFound = APIError.notFound("No learning platform is registered with this id.")
}
