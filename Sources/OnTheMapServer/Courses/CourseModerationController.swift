import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// A course's moderation by its instructors, under its path (`/v1/course/…`): its reported pins,
/// hiding and showing its pins, dismissing their reports, its part of the audit log and its map
/// as a file. The admin area's own operations, scoped to the course: a pin of another course is
/// not there. Who may is `CourseAccess`'s ("teach"), checked by the route group.
struct CourseModerationController: Sendable {
    let service: AdminService
    let locations: any LocationStore

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.courseReports, reports)
        routes.add(.courseChangeLocation, changeLocation)
        routes.add(.courseDismissReports, dismissReports)
        routes.add(.courseAudit, audit)
        routes.add(.courseExport, export)
    }

    /// `?status=open` (the default) or `all`: the course's reports, grouped by pin.
    @Sendable func reports(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let reported = try await service.reports(openOnly: !page.all, limit: page.limit, skip: page.skip, in: context.course)
        return try JSONResponse.make(ResultsBody(results: reported.map(ReportedPinBody.init)))
    }

    /// `{"hidden": Bool}`.
    @Sendable func changeLocation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try AdminChange(try await RequestJSON.value(of: request), allowed: ["hidden"])
        guard let hidden = body.flag("hidden") else { throw APIError.validation("hidden", "Send hidden, true or false.") }
        let pin = try await service.setHidden(
            try AdminController.parameter("objectId", context), to: hidden, by: try await context.requireCaller().account, in: context.course)
        return try JSONResponse.make(AdminPinBody(pin))
    }

    @Sendable func dismissReports(_ request: Request, context: AppRequestContext) async throws -> Response {
        let count = try await service.dismissReports(
            try AdminController.parameter("objectId", context), by: try await context.requireCaller().account, in: context.course)
        return try JSONResponse.make(["dismissed": count])
    }

    /// `?limit=&before=<id>`: the entries about the course's pins, newest first.
    @Sendable func audit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let entries = try await service.auditLog(limit: page.limit, before: page.before, in: context.course)
        return try JSONResponse.make(ResultsBody(results: entries.map(AuditEntryBody.init)))
    }

    /// `?format=geojson|csv|jsonl`: the course's map as a download, named by its slug.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let name = context.facts.mountedCourse.map { "on-the-map-" + $0.slug.rawValue } ?? "on-the-map"
        return AdminController.export(context.course, as: try AdminPage(request).format, from: locations, named: name)
    }
}
