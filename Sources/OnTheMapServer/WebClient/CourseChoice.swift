import Hummingbird
import OnTheMapModel

/// The course a reader last chose in the web client (js/course-choice.js), remembered in a cookie
/// that scripts set, so that the first page can ask for that course's answers with its scripts.
/// It only says which map to open: what the reader may see there is the course's rules' to say.
enum CourseChoice {
    static let cookieName = "onthemap-course"

    /// The chosen course; nil for the default course, or a cookie that names no slug.
    static func course(in request: Request) -> CourseSlug? {
        guard let value = request.cookies[cookieName]?.value, let slug = CourseSlug(rawValue: value), slug.rawValue != "default" else { return nil }
        return slug
    }

    /// The `Set-Cookie` line that chooses `slug` (an LTI launch opening its course's map): readable
    /// by the scripts that set it otherwise, kept a year, as js/course-choice.js writes it.
    static func cookie(choosing slug: CourseSlug) -> String {
        "\(cookieName)=\(slug.rawValue); Path=/; Max-Age=31536000; SameSite=Lax"
    }
}
