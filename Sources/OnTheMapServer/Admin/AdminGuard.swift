import Hummingbird
import OnTheMapModel

/// In front of every `/v1/admin` route: the caller must be logged in (401) and an admin (403). A
/// change then passes the same cross-site check as any session write (its route's, `FamilyGroup`).
/// Handlers find the admin through `context.admin`.
struct AdminGuard: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let caller = try await context.requireCaller()
        guard caller.account.isAdmin else { throw APIError.adminOnly }
        return try await next(request, context)
    }
}

extension AppRequestContext {
    /// The admin `AdminGuard` let through.
    var admin: Account {
        get async throws {
            guard let caller = try await caller(), caller.account.isAdmin else { throw APIError.adminOnly }
            return caller.account
        }
    }

    /// The admin, who must have proved their password (logged in, or typed it again) within
    /// `seconds`: a session left open on a shared computer cannot change accounts.
    func admin(provedPasswordWithin seconds: Int64, clock: WallClock) async throws -> Account {
        guard let caller = try await caller(), caller.account.isAdmin else { throw APIError.adminOnly }
        guard caller.provedPassword(within: seconds, of: clock.nowMicros()) else { throw APIError.passwordConfirmationRequired }
        return caller.account
    }
}
