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
        let pins = PinModeration(service: service, locations: locations, scopedToCourse: false)
        admin.add(.adminAccounts, accounts)
        admin.add(.adminChangeAccount, changeAccount)
        admin.add(.adminPasswordReset, passwordReset)
        admin.add(.adminLocations, allLocations)
        admin.add(.adminChangeLocation, pins.changeLocation)
        admin.add(.adminDeleteLocation, deleteLocation)
        admin.add(.adminReports, pins.reports)
        admin.add(.adminDismissReports, pins.dismissReports)
        admin.add(.adminAudit, pins.audit)
        admin.add(.adminExport, pins.export)
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
        let key = try PinModeration.parameter("key", context)
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
        let (token, expiresAt) = try await service.issuePasswordReset(try PinModeration.parameter("key", context), by: admin)
        let origin = publicURL?.origin ?? ""
        return try JSONResponse.make(["url": "\(origin)/#/reset/\(token)", "expiresAt": WireTime.formatMillis(expiresAt)], status: .created)
    }

    /// `?hidden=true` for hidden pins only; `limit`, `skip`.
    @Sendable func allLocations(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try AdminPage(request)
        let pins = try await service.locations(hiddenOnly: page.hiddenOnly, limit: page.limit, skip: page.skip)
        return try JSONResponse.make(ResultsBody(results: pins.map(AdminPinBody.init)))
    }

    @Sendable func deleteLocation(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await service.delete(try PinModeration.parameter("objectId", context), by: try await context.admin)
        return try JSONResponse.make([String: String]())
    }
}
