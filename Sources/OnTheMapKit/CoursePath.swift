internal import Foundation
import HTTPTypes
internal import OpenAPIRuntime

/// Sends the operations a course serves to its path, `/c/{slug}/…`, and leaves the server's own
/// (sign-up, the geocoder, reports, health, the list of courses) at the root.
///
/// The document gives those operations a second server, `/c/{course}`, at the path level, which
/// swift-openapi-generator does not read: it generates every path at the root. One seam here,
/// rather than a generated client per server, keeps one set of operations, lets a client be moved
/// to another course by changing one string, and keeps the root-only calls right in every course.
struct CoursePathPrefixing: ClientMiddleware {
    /// The operations whose path has the document's `/c/{course}` server (KitPartsTests holds this
    /// list to the document and to the generator's filter).
    static let courseServed: Set<String> = [
        "udacity-session-login", "udacity-session-logout", "udacity-user",
        "v1-list", "v1-create", "v1-read", "v1-update", "v1-delete", "v1-events",
        "parse-list", "parse-create", "parse-read", "parse-update", "parse-delete",
        "me", "courseShow", "courseJoin",
    ]

    /// `/c/{slug}`, the slug escaped as one path segment: a slug the server would not accept
    /// reaches it as such (and is a 404, ``OnTheMapError/Kind/courseNotFound``), never as another path.
    let prefix: String

    init(slug: String) {
        prefix = "/c/" + (slug.addingPercentEncoding(withAllowedCharacters: Self.segment) ?? "")
    }

    private static let segment = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if Self.courseServed.contains(operationID), let path = request.path { request.path = prefix + path }
        return try await next(request, body, baseURL)
    }
}

/// A base URL as an app gives it, read as the server's root and, when its path ends with a
/// course's (`https://map.example.org/c/cs101/`, the course's `path`), that course.
struct ServerAddress: Equatable {
    /// Without a trailing slash: the transports append each operation's path (`/v1/…`) to it as it
    /// is, and `https://map.example.org/` would otherwise ask for `//v1/…`.
    var root: URL
    var course: String?

    init(_ url: URL, readingCourse: Bool = true) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            self.init(root: url, course: nil)
            return
        }
        var segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var course: String?
        if readingCourse, segments.count >= 2, segments[segments.count - 2] == "c" {
            course = segments.removeLast().removingPercentEncoding
            segments.removeLast()
        }
        components.percentEncodedPath = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        self.init(root: components.url ?? url, course: course)
    }

    init(root: URL, course: String?) {
        self.root = root
        self.course = course
    }
}
