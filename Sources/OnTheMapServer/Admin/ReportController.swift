import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// What students do about other pins and their own passwords: `POST /v1/reports` (a logged-in
/// student reports someone else's pin, once until an admin looks) and `POST /v1/password-reset`
/// (a one-time link from an admin sets a new password).
struct ReportController: Sendable {
    let store: any ModerationStore & LocationStore
    let accounts: AccountService
    /// Who may see a pin of another course than the default one.
    let courses: CourseAccess
    let clock: WallClock

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.report, report)
        routes.add(.resetPassword, resetPassword)
    }

    /// `{"objectId", "reason"}` → 201 with the report, or 200 with the one already open.
    @Sendable func report(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try await context.requireCaller()
        let body = try await RequestJSON.value(of: request)
        guard let fields = body.object else { throw APIError.invalidJSON() }
        guard case .string(let objectId)? = fields["objectId"], !objectId.isEmpty else {
            throw APIError.validation("objectId", "objectId must name the pin reported.")
        }
        let reason = try ReportReason.parse(fields["reason"])
        let notThere = APIError.notFound("No location with objectId \(objectId).")
        guard let pin = try await store.location(objectId: objectId), !pin.isHidden else { throw notThere }
        guard pin.ownerKey != caller.account.key else { throw APIError.validation("objectId", "You cannot report your own pin.") }
        // Only a pin the reporter may see can be reported: another course's is not there for them.
        guard try await courses.may(.read, pinOf: pin.course, account: caller.account) else { throw notThere }
        let (report, isNew) = try await store.insertReport(
            objectId: objectId, in: pin.course, reporterKey: caller.account.key, reason: reason, now: clock.nowMillis())
        let answer = ReportAnswer(id: report.id, objectId: report.objectId, reason: report.reason.rawValue, createdAt: WireTime.formatMillis(report.createdAt))
        return try JSONResponse.make(answer, status: isNew ? .created : .ok)
    }

    /// `{"token", "password"}` → 200; every session of the account ends, so the student logs in anew.
    @Sendable func resetPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let fields = try await RequestJSON.value(of: request).object else { throw APIError.invalidJSON() }
        guard case .string(let token)? = fields["token"], !token.isEmpty else { throw APIError.validation("token", "token is missing.") }
        guard case .string(let password)? = fields["password"] else { throw APIError.validation("password", "password is missing.") }
        try await accounts.resetPassword(token: token, password: password, resets: store, clientAddress: context.clientAddress)
        return try JSONResponse.make(["status": "ok"])
    }
}

/// A report as its reporter sees it; `id` is a number, as in the admin area's list.
private struct ReportAnswer: Encodable {
    let id: Int64
    let objectId: String
    let reason: String
    let createdAt: String
}
