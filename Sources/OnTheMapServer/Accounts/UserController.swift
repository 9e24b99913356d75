import Hummingbird
import OnTheMapModel
import OnTheMapStore

/// `GET /v1/users/{id}` and `GET /api/users/{id}` (docs/API.md, "Users"), prefixed.
struct UserController: Sendable {
    let accounts: any AccountStore
    let authenticator: SessionAuthenticator

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.udacityUser) { _, context in try await self.profile(context, legacy: false) }
        routes.add(.udacityUserLegacy) { _, context in try await self.profile(context, legacy: true) }
    }

    func profile(_ context: AppRequestContext, legacy: Bool) async throws -> Response {
        guard let (account, isSelf) = try await resolve(context.parameters.get("id") ?? "", context: context) else {
            throw APIError.notFound("No user with that id.")
        }
        var shown = account
        // A course that shows non-members initials shows them initials here too.
        if !isSelf, try await NamesForReader.names(context) == .initials {
            shown.firstName = Course.NamesShown.initial(of: account.firstName)
            shown.lastName = Course.NamesShown.initial(of: account.lastName)
        }
        let profile = UserProfile(account: shown, showEmail: isSelf)
        return legacy
            ? try JSONResponse.make(LegacyUserResponse(profile: profile))
            : try JSONResponse.make(V1UserResponse(profile: profile))
    }

    /// Clients put odd things in `{id}`: the account key, the session id, a hard-coded key, or the
    /// key with a stray `&`. Tried in that order: account key, session id, the caller's own account.
    /// The second value says whether the requester is that account (and may see its email).
    private func resolve(_ rawId: String, context: AppRequestContext) async throws -> (Account, Bool)? {
        var id = rawId
        while id.hasSuffix("&") { id.removeLast() }
        let caller = try await context.caller()
        if !id.isEmpty, let account = try await accounts.account(key: id) {
            return (account, caller?.account.key == account.key)
        }
        if !id.isEmpty, let owner = try await authenticator.caller(token: id, viaCookie: false, in: context.course) {
            return (owner.account, true)
        }
        if let caller { return (caller.account, true) }
        return nil
    }
}
