import Hummingbird
import OnTheMapModel

extension SessionCookies {
    /// The answer to a login or a sign-up: the session in the login body (docs/API.md, "Session") and
    /// its cookies, so a browser is logged in too. The Udacity family's group adds its prefix.
    func loginAnswer(_ session: AccountService.IssuedSession, lifetime: Int64, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try JSONResponse.make(
            LoginResponse(accountKey: session.account.key, sessionId: session.token, expiresAtMicros: session.expiresAt), status: status)
        response.setCookies(issue(sessionToken: session.token, lifetime: lifetime) + (session.device.map { [device($0)] } ?? []))
        return response
    }
}
