import OnTheMapModel

/// The API families share one host but not one error shape (docs/API.md, "Path families and error shapes").
enum PathFamily: Sendable {
    /// `/v1/session`, `/v1/users/*`, `/api/session`, `/api/users/*`: the 5-byte prefix, `{status, error}`.
    case udacity
    /// `/v1/StudentLocation…`: `{status, code, error}`, readable by Udacity- and Parse-shaped decoders.
    case v1Locations
    /// `/parse/…` and `/1/…`: Parse's `{code, error}`.
    case parse
    /// Everything else (native endpoints, unknown paths): `{status, code, error}`.
    case native

    /// The family a path belongs to when no route took the request (an unknown path or method, or an
    /// answer the HTTP edge makes before routing). A routed request's family comes from its route
    /// group (`FamilyGroup`), which may only hold paths its family claims here. A course's path
    /// (`/c/{slug}/…`, `CourseMount`) belongs to the family of the path after its prefix.
    static func claiming(_ path: String) -> PathFamily {
        claiming(path[...], insideCourse: false)
    }

    private static func claiming(_ path: Substring, insideCourse: Bool) -> PathFamily {
        let segments = path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: true)
        if !insideCourse, segments.count == 3, segments[0] == "c" {
            return claiming(segments[2], insideCourse: true)
        }
        let first = segments.first ?? ""
        let second = segments.count > 1 ? segments[1] : ""
        switch (first, second) {
        case ("v1", "session"), ("v1", "users"), ("api", "session"), ("api", "users"): return .udacity
        case ("v1", "StudentLocation"): return .v1Locations
        case ("parse", _), ("1", _): return .parse
        default: return .native
        }
    }

    /// Whether bodies start with `)]}'\n`.
    var hasPrefix: Bool { self == .udacity }

    /// The error body in this family's shape.
    func errorBody(_ error: APIError) -> ErrorBody {
        switch self {
        case .udacity: ErrorBody(status: error.status, code: nil, parameter: error.parameter, error: error.message)
        case .parse: ErrorBody(status: nil, code: error.code, parameter: nil, error: error.message)
        case .v1Locations, .native: ErrorBody(status: error.status, code: error.code, parameter: error.parameter, error: error.message)
        }
    }
}

/// `{"status", "code", "parameter", "error"}` with absent keys left out; `status` and `code` are integers.
struct ErrorBody: Encodable {
    let status: Int?
    let code: Int?
    let parameter: String?
    let error: String
}
