import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OnTheMapModel

/// `GET /v1/oidc/ID/start` and `GET /v1/oidc/ID/callback`: the browser's two steps of signing in
/// with a provider. Both are page navigations, so every answer is a redirect: to the provider, to
/// the map once logged in, or to the login page with `login-error=CODE`, which the web client says
/// in words (`SignInFailure`); the details go to the server's log.
struct SignInController: Sendable {
    let service: SignInService
    let cookies: SessionCookies

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.startSignIn, start)
        routes.add(.finishSignIn, callback)
    }

    @Sendable func start(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = context.parameters.get("provider") ?? ""
        do {
            let (url, state) = try await service.start(provider: id, clientAddress: context.clientAddress)
            return redirect(to: url.absoluteString, status: .found, cookies: [cookies.pendingSignIn(state: state)])
        } catch let error as APIError where error.status == 429 {
            return failed(provider: id, code: "throttled", detail: error.message, logger: context.logger)
        } catch let failure as SignInFailure {
            return failed(provider: id, code: failure.code, detail: failure.detail, logger: context.logger)
        } catch {
            context.logger.error("Sign-in with a provider could not start: \(error)")
            return failed(provider: id, code: "server-error", detail: "\(error)", logger: context.logger)
        }
    }

    @Sendable func callback(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = context.parameters.get("provider") ?? ""
        let query = request.uri.queryParameters
        let callback = SignInService.Callback(
            state: query["state"].map(String.init), code: query["code"].map(String.init), error: query["error"].map(String.init),
            errorDescription: query["error_description"].map(String.init),
            browserState: SessionCookies.pendingSignIn(in: request))
        do {
            let session = try await service.finish(provider: id, callback)
            context.logger.info("Signed in with provider", metadata: ["provider": .string(id), "account": .string(session.account.key)])
            return redirect(
                to: service.origin + "/#/map", status: .seeOther,
                cookies: cookies.issue(sessionToken: session.token, lifetime: service.accounts.sessionLifetimeSeconds) + [cookies.clearPendingSignIn()])
        } catch let failure as SignInFailure {
            return failed(provider: id, code: failure.code, detail: failure.detail, logger: context.logger)
        } catch {
            // The database, most likely: the student still gets the login page, not a JSON error.
            context.logger.error("Sign-in with a provider could not finish: \(error)")
            return failed(provider: id, code: "server-error", detail: "\(error)", logger: context.logger)
        }
    }

    /// Back to the login page, which explains `code`.
    private func failed(provider id: String, code: String, detail: String, logger: Logger) -> Response {
        logger.notice("Sign-in with a provider failed", metadata: ["provider": .string(id), "reason": .string(code), "detail": .string(detail)])
        let query = ProviderHTTP.form([("login-error", code), ("provider", id)])
        return redirect(to: service.origin + "/?\(query)#/login", status: .seeOther, cookies: [cookies.clearPendingSignIn()])
    }

    private func redirect(to location: String, status: HTTPResponse.Status, cookies: [String]) -> Response {
        var response = Response(status: status, headers: [.location: location, .cacheControl: "no-store", .contentLength: "0"])
        response.setCookies(cookies)
        return response
    }
}
