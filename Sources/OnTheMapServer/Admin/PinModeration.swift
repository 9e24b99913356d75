import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// The handlers that moderate pins and their reports, once for both places that serve them: the
/// admin area over every course (`AdminController`, behind `AdminGuard`) and a course's own, for
/// its instructors (`CourseModerationController`, behind `CourseAccess`). Scoped to the request's
/// course, a pin of another course is not there. The moderator is the caller whom the route
/// group's guard let through.
struct PinModeration: Sendable {
    let service: AdminService
    let locations: any LocationStore
    /// True for a course's own: the request's course only; false for the admin area: every course.
    let scopedToCourse: Bool

    private func scope(_ context: AppRequestContext) -> CourseID? { scopedToCourse ? context.course : nil }

    /// `?status=open` (the default) or `all`: reports grouped by pin.
    @Sendable func reports(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let reported = try await service.reports(openOnly: !page.all, limit: page.limit, skip: page.skip, in: scope(context))
        return try JSONResponse.make(ResultsBody(results: reported.map(ReportedPinBody.init)))
    }

    /// `?limit=&skip=`: the pins waiting for approval, the most recently written first.
    @Sendable func awaitingApproval(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let pins = try await service.awaitingApproval(limit: page.limit, skip: page.skip, in: scope(context))
        return try JSONResponse.make(ResultsBody(results: pins.map(AdminPinBody.init)))
    }

    /// `{"hidden": Bool}`: on a pin waiting for approval, false approves it and true declines it.
    @Sendable func changeLocation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try AdminChange(try await RequestJSON.value(of: request), allowed: ["hidden"])
        guard let hidden = body.flag("hidden") else { throw APIError.validation("hidden", "Send hidden, true or false.") }
        let pin = try await service.setHidden(
            try Self.parameter("objectId", context), to: hidden, by: try await context.requireCaller().account, in: scope(context))
        return try JSONResponse.make(AdminPinBody(pin))
    }

    @Sendable func dismissReports(_ request: Request, context: AppRequestContext) async throws -> Response {
        let count = try await service.dismissReports(
            try Self.parameter("objectId", context), by: try await context.requireCaller().account, in: scope(context))
        return try JSONResponse.make(["dismissed": count])
    }

    /// `?limit=&before=<id>`: the audit log, newest first.
    @Sendable func audit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let entries = try await service.auditLog(limit: page.limit, before: page.before, in: scope(context))
        return try JSONResponse.make(ResultsBody(results: entries.map(AuditEntryBody.init)))
    }

    /// `?format=geojson|csv|jsonl`: the course's map as a download, streamed a page at a time;
    /// named by the course's slug under its path.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let format = try AdminPage(request).format
        let name = context.facts.mountedCourse.map { "on-the-map-" + $0.slug.rawValue } ?? "on-the-map"
        var headers = HTTPFields()
        headers[.contentType] = switch format {
        case .geojson: "application/geo+json; charset=utf-8"
        case .csv: "text/csv; charset=utf-8"
        case .jsonl: "application/jsonl; charset=utf-8"
        }
        headers[.contentDisposition] = "attachment; filename=\"\(name).\(format.rawValue)\""
        headers[.cacheControl] = "no-store"
        let course = context.course, slug = context.facts.mountedCourse?.slug ?? CourseSlug(rawValue: "default")
        return Response(status: .ok, headers: headers, body: ResponseBody { [locations] writer in
            try await locations.export(course, named: slug, as: format) { try await writer.write(ByteBuffer(string: $0)) }
            try await writer.finish(nil)
        })
    }

    static func parameter(_ name: String, _ context: AppRequestContext) throws(APIError) -> String {
        guard let value = context.parameters.get(name), !value.isEmpty else { throw .notFound("\(name) is missing.") }
        return value
    }
}
