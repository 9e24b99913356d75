import Hummingbird
import Logging
import OnTheMapModel

/// The tool's LTI 1.3 endpoints (README, "Launched from a learning platform"): its public key set,
/// which platforms read to check what the tool signs; the platform's login initiation, answered
/// with the redirect to the platform's authorization endpoint; and the launch the platform posts
/// back, which opens the course's map signed in, or a page that says why not.
struct LTIController: Sendable {
    let keys: LTIToolKeys
    /// Nil without `--public-url`: the launch URL a platform posts to must be absolute.
    let launches: LTILaunchService?
    let cookies: SessionCookies

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.ltiKeySet, keySet)
        routes.add(.ltiLogin, login)
        routes.add(.ltiLoginPost, login)
        routes.add(.ltiLaunch, launch)
    }

    /// The JWK set (RFC 7517) of the tool's published keys: a platform caches it for a while.
    @Sendable func keySet(_ request: Request, context: AppRequestContext) async throws -> Response {
        try JSONResponse.make(try await keys.publicKeySet(), headers: [.cacheControl: "public, max-age=3600"])
    }

    /// The platform's OpenID Connect login initiation, as a GET's query or a POST's form.
    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let launches else { return LTIPage.notSetUp }
        var parameters: [String: String] = [:]
        for (name, value) in QueryString.parse(request.uri.query) { parameters[name] = value }
        if request.method == .post { for (name, value) in try await Self.form(request) { parameters[name] = value } }
        do {
            let url = try await launches.login(parameters, clientAddress: context.clientAddress)
            return Response(status: .found, headers: [.location: url.absoluteString, .cacheControl: "no-store", .contentLength: "0"])
        } catch let failure as LTILaunchFailure {
            return refused(failure, logger: context.logger)
        } catch let refusal as APIError where refusal.status == 429 {
            return LTIPage.page(title: "Too many launches", refusal)
        }
    }

    /// The launch: the platform's form post of `id_token` and `state`.
    @Sendable func launch(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let launches else { return LTIPage.notSetUp }
        let form = Dictionary(try await Self.form(request), uniquingKeysWith: { first, _ in first })
        do {
            let launched = try await launches.launch(idToken: form["id_token"] ?? "", state: form["state"] ?? "")
            context.logger.info("LTI launch", metadata: [
                "platform": .stringConvertible(launched.platform.id), "course": .string(launched.course.slug.rawValue),
                "account": .string(launched.session.account.key), "teaches": .stringConvertible(launched.teaches),
            ])
            var response = Response(status: .seeOther, headers: [.location: launches.origin + "/#/map", .cacheControl: "no-store", .contentLength: "0"])
            response.setCookies(
                cookies.issue(sessionToken: launched.session.token, lifetime: launches.accounts.sessionLifetimeSeconds)
                    + [CourseChoice.cookie(choosing: launched.course.slug)])
            return response
        } catch let failure as LTILaunchFailure {
            return refused(failure, logger: context.logger)
        }
    }

    private func refused(_ failure: LTILaunchFailure, logger: Logger) -> Response {
        logger.notice("LTI launch refused", metadata: ["reason": .string("\(failure)"), "detail": .string(failure.detail)])
        return LTIPage.refusal(failure)
    }


    /// A form-encoded body's fields (`+` is a space there).
    static func form(_ request: Request) async throws -> [(name: String, value: String)] {
        let body = try await RequestJSON.bytes(of: request)
        return QueryString.parse(String(buffer: body).replacingOccurrences(of: "+", with: "%20"))
    }
}
