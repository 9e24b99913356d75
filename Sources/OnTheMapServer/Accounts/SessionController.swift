import Hummingbird
import OnTheMapModel

/// `POST`/`DELETE /v1/session` and `/api/session` (docs/API.md, "Session"). Every answer carries
/// the Udacity prefix (from its group).
struct SessionController: Sendable {
    let accounts: AccountService
    let cookies: SessionCookies
    /// Whether the account may log in at the course's paths.
    let courses: CourseAccess
    let clock: WallClock

    func addRoutes(to routes: FamilyGroup) {
        // Logout takes no cross-site check: any XSRF header spelling, or none (docs/API.md, "Session").
        routes.add(.udacitySessionLogin, logIn)
        routes.add(.udacitySessionLogout, logOut)
        routes.add(.udacitySessionLegacyLogin, logIn)
        routes.add(.udacitySessionLegacyLogout, logOut)
    }

    /// Logs in with `{"udacity": {"username", "password"}}`.
    @Sendable func logIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let credentials = try await Self.credentials(in: request)
        let course = context.facts.mountedCourse
        let session = try await accounts.logIn(
            email: credentials.username, password: credentials.password, clientAddress: context.clientAddress,
            device: SessionCookies.device(in: request)
        ) { [courses] account in try await courses.checkLogIn(account, at: course) }
        return try cookies.loginAnswer(session, lifetime: accounts.sessionLifetimeSeconds)
    }

    /// Ends the caller's session, if any; always 200 with exactly `{"session": {…}}`. Any XSRF
    /// header spelling and any body are accepted and none is required.
    @Sendable func logOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try await context.caller()
        if let caller { try await accounts.logOut(token: caller.token) }
        let body = LogoutResponse(session: SessionPart(id: caller?.token ?? "", expiresAtMicros: clock.nowMicros()))
        var response = try JSONResponse.make(body)
        response.setCookies(cookies.clear())
        return response
    }

    /// Reads the one credential object. Clients build this body by string interpolation, so a quote
    /// in a password arrives as broken JSON: that is a 400, like any other unreadable body.
    static func credentials(in request: Request) async throws(APIError) -> (username: String, password: String) {
        let body: JSONValue
        do { body = try await RequestJSON.value(of: request) } catch where error.status == 400 { throw .credentialCount }
        guard let members = body.object else { throw .credentialCount }
        let credentialKeys = ["udacity", "facebook_mobile"].filter { members[$0] != nil }
        guard credentialKeys.count == 1 else { throw .credentialCount }
        // Facebook sign-in cannot be verified by this service: it is an unknown account.
        guard credentialKeys[0] == "udacity" else { throw .invalidCredentials }
        guard let udacity = members["udacity"]?.object else { throw .credentialCount }
        guard case .string(let username)? = udacity["username"], !username.isEmpty else {
            throw .missingCredentialField("udacity.username")
        }
        guard case .string(let password)? = udacity["password"], !password.isEmpty else {
            throw .missingCredentialField("udacity.password")
        }
        return (username, password)
    }
}
