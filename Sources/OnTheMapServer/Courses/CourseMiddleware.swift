import Hummingbird
import OnTheMapModel

/// In front of every route of a course's mount (`/c/{slug}/…`): finds the course its path names
/// and puts it in the request's facts, for the access check, the handlers and the store. A slug
/// that names no course is a 404 in the family's error shape (the family is known by now).
struct CourseMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let directory: CourseDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let slug = context.parameters.get(CourseMount.parameter).flatMap(CourseSlug.init(rawValue:)),
              let course = try await directory.course(slug) else { throw APIError.courseNotFound }
        context.facts.mountedCourse = course
        return try await next(request, context)
    }
}

/// In front of an operation a course serves: `CourseAccess` says whether the caller may.
struct CourseAccessMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let access: CourseAccess
    let action: CourseAccess.Action
    /// The mount's (nil at today's paths), asked again before a refusal.
    let directory: CourseDirectory?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            try await access.check(action, on: context.facts.mountedCourse) { try await context.caller() }
        } catch let refusal as APIError where refusal.status == 403 {
            // A course deleted by another instance in the seconds this one still remembers it took
            // its members with it: its members would be refused as strangers. It is not there.
            if let directory, let course = context.facts.mountedCourse {
                directory.forget(course.slug)
                if try await directory.course(course.slug)?.id != course.id { throw APIError.courseNotFound }
            }
            throw refusal
        }
        return try await next(request, context)
    }
}
