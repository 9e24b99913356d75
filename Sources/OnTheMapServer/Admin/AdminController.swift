import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// `/v1/admin/…`: the admin area's API (README, "Moderation"). Every route is behind `AdminGuard`;
/// every change is audited by `AdminService`.
struct AdminController: Sendable {
    static let basePath = "/v1/admin"
    let service: AdminService
    let locations: any LocationStore
    /// Where reset links point: the configured public origin, never a host the request names
    /// (a forged `Host` would send the student's new password elsewhere).
    let publicURL: PublicURL?
    /// How recently an admin must have proved their password to change an account.
    let confirmationSeconds: Int64
    let clock: WallClock

    /// `admin` is the group under `basePath` behind `AdminGuard`.
    func addRoutes(to admin: FamilyGroup) {
        admin.add(.adminAccounts, accounts)
        admin.add(.adminChangeAccount, changeAccount)
        admin.add(.adminPasswordReset, passwordReset)
        admin.add(.adminLocations, allLocations)
        admin.add(.adminChangeLocation, changeLocation)
        admin.add(.adminDeleteLocation, deleteLocation)
        admin.add(.adminReports, reports)
        admin.add(.adminDismissReports, dismissReports)
        admin.add(.adminAudit, audit)
        admin.add(.adminExport, export)
    }

    /// `?search=&limit=&skip=`: accounts, newest first, each with its pin.
    @Sendable func accounts(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let found = try await service.accounts(search: page.search, limit: page.limit, skip: page.skip)
        return try JSONResponse.make(ResultsBody(results: found.map { AdminAccountBody($0.account, pin: $0.pin) }))
    }

    /// `{"isAdmin": Bool}` and/or `{"disabled": Bool}`.
    @Sendable func changeAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try await context.admin(provedPasswordWithin: confirmationSeconds, clock: clock)
        let key = try Self.parameter("key", context)
        let body = try AdminChange(try await RequestJSON.value(of: request), allowed: ["isAdmin", "disabled"])
        var account: Account?
        if let isAdmin = body.flag("isAdmin") { account = try await service.setAdmin(key, to: isAdmin, by: admin) }
        if let disabled = body.flag("disabled") { account = try await service.setDisabled(key, to: disabled, by: admin) }
        guard let account else { throw APIError.validation("isAdmin", "Send isAdmin or disabled, true or false.") }
        return try JSONResponse.make(AdminAccountBody(account, pin: try await locations.location(ownerKey: key, in: context.course)))
    }

    /// A one-time link the admin passes on; it lets the student choose a new password for 72 hours.
    /// Without `--public-url` it is a path, which the admin area completes with its own origin.
    @Sendable func passwordReset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try await context.admin(provedPasswordWithin: confirmationSeconds, clock: clock)
        let (token, expiresAt) = try await service.issuePasswordReset(try Self.parameter("key", context), by: admin)
        let origin = publicURL?.origin ?? ""
        return try JSONResponse.make(["url": "\(origin)/#/reset/\(token)", "expiresAt": WireTime.formatMillis(expiresAt)], status: .created)
    }

    /// `?hidden=true` for hidden pins only; `limit`, `skip`.
    @Sendable func allLocations(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let pins = try await service.locations(hiddenOnly: page.hiddenOnly, limit: page.limit, skip: page.skip)
        return try JSONResponse.make(ResultsBody(results: pins.map(AdminPinBody.init)))
    }

    /// `{"hidden": Bool}`.
    @Sendable func changeLocation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try AdminChange(try await RequestJSON.value(of: request), allowed: ["hidden"])
        guard let hidden = body.flag("hidden") else { throw APIError.validation("hidden", "Send hidden, true or false.") }
        let pin = try await service.setHidden(try Self.parameter("objectId", context), to: hidden, by: try await context.admin)
        return try JSONResponse.make(AdminPinBody(pin))
    }

    @Sendable func deleteLocation(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await service.delete(try Self.parameter("objectId", context), by: try await context.admin)
        return try JSONResponse.make([String: String]())
    }

    /// `?status=open` (the default) or `all`: reports grouped by pin.
    @Sendable func reports(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let reported = try await service.reports(openOnly: !page.all, limit: page.limit, skip: page.skip)
        return try JSONResponse.make(ResultsBody(results: reported.map(ReportedPinBody.init)))
    }

    @Sendable func dismissReports(_ request: Request, context: AppRequestContext) async throws -> Response {
        let count = try await service.dismissReports(try Self.parameter("objectId", context), by: try await context.admin)
        return try JSONResponse.make(["dismissed": count])
    }

    /// `?limit=&before=<id>`: the audit log, newest first.
    @Sendable func audit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let entries = try await service.auditLog(limit: page.limit, before: page.before)
        return try JSONResponse.make(ResultsBody(results: entries.map(AuditEntryBody.init)))
    }

    /// `?format=geojson|csv|jsonl`: the class's map as a download, streamed a page at a time.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        Self.export(context.course, as: try AdminPage(request).format, from: locations, named: "on-the-map")
    }

    /// `course`'s map as a download named `name`.`format`, streamed a page at a time.
    static func export(_ course: CourseID, as format: ExportFormat, from locations: any LocationStore, named name: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = switch format {
        case .geojson: "application/geo+json; charset=utf-8"
        case .csv: "text/csv; charset=utf-8"
        case .jsonl: "application/jsonl; charset=utf-8"
        }
        headers[.contentDisposition] = "attachment; filename=\"\(name).\(format.rawValue)\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { [locations] writer in
            try await locations.export(course, as: format) { try await writer.write(ByteBuffer(string: $0)) }
            try await writer.finish(nil)
        })
    }

    static func parameter(_ name: String, _ context: AppRequestContext) throws(APIError) -> String {
        guard let value = context.parameters.get(name), !value.isEmpty else { throw .notFound("\(name) is missing.") }
        return value
    }
}
