import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// The endpoints this service adds for accounts: sign-up, "me" and confirming one's password
/// (docs/API.md, "Native endpoints").
struct NativeController: Sendable {
    let accounts: AccountService
    let locations: any LocationStore
    let cookies: SessionCookies

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.signUp, signUp)
        routes.add(.confirmPassword, confirmPassword)
    }

    /// The operations a course serves at its path: the caller's pin is the one in that course.
    func addCourseRoutes(to routes: FamilyGroup) {
        routes.add(.me, me)
    }

    /// `{"email", "password", "firstName", "lastName"}` → 201 with the login body and cookies.
    @Sendable func signUp(_ request: Request, context: AppRequestContext) async throws -> Response {
        let signUp = try SignUp.parse(try await RequestJSON.value(of: request))
        let session = try await accounts.signUp(signUp, clientAddress: context.clientAddress)
        return try cookies.loginAnswer(session, lifetime: accounts.sessionLifetimeSeconds, status: .created)
    }

    /// The caller's account and own location in the request's course (or null), which shows to its
    /// owner even when a moderator has hidden it from everyone else (`locationHidden` says so) or
    /// while it waits for an instructor's approval (`locationAwaitingApproval`).
    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try await context.requireCaller()
        let owned = try await locations.location(ownerKey: caller.account.key, in: context.course)
        let waiting = owned?.awaitingApproval ?? false
        return try JSONResponse.make(MeBody(
            account: .init(caller.account), location: Nullable(owned?.location), locationHidden: (owned?.isHidden ?? false) && !waiting,
            locationAwaitingApproval: waiting))
    }

    /// `{"password"}`: the caller proves again that they know it (an admin about to change accounts).
    @Sendable func confirmPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try await context.requireCaller()
        guard case .string(let password)? = try await RequestJSON.value(of: request).object?["password"], !password.isEmpty else {
            throw APIError.validation("password", "password is missing.")
        }
        try await accounts.confirmPassword(password, for: caller, clientAddress: context.clientAddress)
        return try JSONResponse.make(["status": "ok"])
    }
}

private struct MeBody: Encodable {
    struct AccountBody: Encodable {
        let key: String
        let email: String
        let firstName: String
        let lastName: String
        let isAdmin: Bool

        init(_ account: Account) {
            key = account.key
            email = account.email
            firstName = account.firstName
            lastName = account.lastName
            isAdmin = account.isAdmin
        }
    }

    let account: AccountBody
    /// `null`, not left out, when there is none.
    let location: Nullable<StudentLocation>
    let locationHidden: Bool
    let locationAwaitingApproval: Bool
}
