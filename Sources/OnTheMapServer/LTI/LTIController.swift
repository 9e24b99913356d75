import Foundation
import Hummingbird
import Logging
import OnTheMapModel

/// The tool's LTI 1.3 endpoints (README, "Launched from a learning platform"): its public key set,
/// which platforms read to check what the tool signs; the platform's login initiation, answered
/// with the redirect to the platform's authorization endpoint; the launch the platform posts
/// back, which opens the course's map signed in, or a page that says why not; and the same page
/// reloaded in the platform's frame, or opened in a window of its own.
struct LTIController: Sendable {
    let keys: LTIToolKeys
    /// Nil without `--public-url`: the launch URL a platform posts to must be absolute.
    let launches: LTILaunchService?
    let cookies: SessionCookies
    let authenticator: SessionAuthenticator
    let webClient: WebController
    let secret: ServerSecret

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.ltiKeySet, keySet)
        routes.add(.ltiLogin, login)
        routes.add(.ltiLoginPost, login)
        routes.add(.ltiLaunch, launch)
        routes.add(.ltiLaunchReload, reload)
        routes.add(.ltiOpenWindow, openWindow)
        routes.add(.ltiDeepLink, deepLink)
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
            let started = try await launches.login(parameters, clientAddress: context.clientAddress)
            var response = Response(status: .found, headers: [.location: started.url.absoluteString, .cacheControl: "no-store", .contentLength: "0"])
            response.setCookies([LTIBrowserBinding.cookie(state: started.state, secret: started.binding)])
            return response
        } catch let refused as LTILaunchService.Refused {
            return await refusal(refused, launches: launches, logger: context.logger)
        } catch let refusal as APIError where refusal.status == 429 {
            return LTIPage.page(title: "Too many launches", refusal)
        }
    }

    /// The launch: the platform's form post of `id_token` and `state`. It answers with the app's
    /// page itself, signed in, rather than a redirect to it: inside the platform's frame the
    /// browser may keep no cookie of ours, so the page carries the session for its script
    /// (`FirstPage.launchPage`). The cookies are set too, for a launch in a window of its own.
    @Sendable func launch(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let launches else { return LTIPage.notSetUp }
        let form = Dictionary(try await Self.form(request), uniquingKeysWith: { first, _ in first })
        let state = form["state"] ?? ""
        let binding = LTIBrowserBinding.secret(in: request, state: state)
        var response: Response
        do {
            switch try await launches.launch(idToken: form["id_token"] ?? "", state: state, binding: binding) {
            case .map(let launched): response = try opened(launched, request: request, launches: launches, logger: context.logger)
            case .deepLinking(let choice): response = LTIPage.picker(choice)
            }
        } catch let refused as LTILaunchService.Refused {
            response = await refusal(refused, launches: launches, logger: context.logger)
        }
        // The state is used, whatever came of it: its cookie goes.
        if binding != nil { response.setCookies([LTIBrowserBinding.forget(state: state)]) }
        return response
    }

    private func opened(_ launched: LTILaunchService.Launched, request: Request, launches: LTILaunchService, logger: Logger) throws -> Response {
        logger.info("LTI launch", metadata: [
            "platform": .stringConvertible(launched.platform.id), "course": .string(launched.course.slug.rawValue),
            "account": .string(launched.session.account.key), "teaches": .stringConvertible(launched.teaches),
        ])
        let session = LaunchSession(
            token: launched.session.token, course: launched.course.slug.rawValue, frame: LTIFrame.pass(launched.frameAncestors, secret: secret))
        var response = webClient.launchPage(
            for: request, course: launched.course.slug, session: try session.json(), frameAncestors: launched.frameAncestors)
        response.setCookies(
            cookies.issue(sessionToken: launched.session.token, lifetime: launches.accounts.sessionLifetimeSeconds)
                + [CourseChoice.cookie(choosing: launched.course.slug)])
        return response
    }

    /// The instructor's choice in the Deep Linking picker: the signed link goes back to the platform.
    @Sendable func deepLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let launches else { return LTIPage.notSetUp }
        let form = Dictionary(try await Self.form(request), uniquingKeysWith: { first, _ in first })
        do {
            let answer = try await launches.deepLink(form["request"] ?? "", slug: form["create"] == nil ? form["course"] : nil, newTitle: form["title"])
            context.logger.info("LTI deep link", metadata: ["return": .string(answer.returnURL)])
            return LTIPage.returnToPlatform(answer)
        } catch let failure as LTILaunchFailure {
            return await refusal(.init(failure: failure, platform: nil), launches: launches, logger: context.logger)
        } catch let refusal as APIError where refusal.status < 500 {
            // A title the course rules refuse: said on a page, as everything in the platform's frame is.
            return LTIPage.page(
                title: "The map could not be made", refusal,
                frameAncestors: await launches.frameAncestors(for: .init(failure: .expired, platform: nil)))
        }
    }

    /// The launch's page loaded again in the platform's frame (the address its script gave it):
    /// the app's page with no session, which the script finds in the tab's storage if it kept it,
    /// framed by the origins the launch was (`LTIFrame.pass`).
    @Sendable func reload(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let launches else { return LTIPage.notSetUp }
        guard let pass = request.uri.queryParameters.get("frame"), let ancestors = LTIFrame.ancestors(fromPass: pass, secret: secret) else {
            return await refusal(.init(failure: .expired, platform: nil), launches: launches, logger: context.logger)
        }
        return webClient.launchPage(
            for: request, course: nil, session: try LaunchSession(token: nil, course: nil, frame: pass).json(), frameAncestors: ancestors)
    }

    /// The map in a window of its own, from a launch's page in the platform's frame: that window
    /// gets the frame's session as its cookies. Only from a page of this server (`sameOrigin`):
    /// another site could otherwise sign a student's browser in to someone else's account.
    @Sendable func openWindow(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let launches else { return LTIPage.notSetUp }
        let form = Dictionary(try await Self.form(request), uniquingKeysWith: { first, _ in first })
        guard let token = form["token"], !token.isEmpty, token.utf8.count <= 256,
              try await authenticator.caller(token: token, viaCookie: false, in: .default) != nil else {
            return LTIPage.refusal(.expired)
        }
        var response = Response(status: .seeOther, headers: [.location: launches.origin + "/#/map", .cacheControl: "no-store", .contentLength: "0"])
        var lines = cookies.issue(sessionToken: token, lifetime: launches.accounts.sessionLifetimeSeconds)
        if let slug = form["course"].flatMap(CourseSlug.init(rawValue:)) { lines.append(CourseChoice.cookie(choosing: slug)) }
        response.setCookies(lines)
        return response
    }

    private func refusal(_ refused: LTILaunchService.Refused, launches: LTILaunchService, logger: Logger) async -> Response {
        logger.notice("LTI launch refused", metadata: ["reason": .string("\(refused.failure)"), "detail": .string(refused.failure.detail)])
        return LTIPage.refusal(refused.failure, frameAncestors: await launches.frameAncestors(for: refused))
    }

    /// A form-encoded body's fields (`+` is a space there).
    static func form(_ request: Request) async throws -> [(name: String, value: String)] {
        let body = try await RequestJSON.bytes(of: request)
        return QueryString.parse(String(buffer: body).replacingOccurrences(of: "+", with: "%20"))
    }
}

/// What a launch's page tells its script (js/launch-session.js): the session to send as a bearer
/// token and the course it opened (none when the page was loaded again: the script looks in the
/// tab's storage), and the address to give the page so that loading it again keeps its framing.
struct LaunchSession: Encodable {
    let token: String?
    let course: String?
    let frame: String

    var reloadPath: String { LTIPaths.launch + "?frame=" + frame }

    enum CodingKeys: String, CodingKey { case token, course, reload }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(token, forKey: .token)
        try container.encodeIfPresent(course, forKey: .course)
        try container.encode(reloadPath, forKey: .reload)
    }

    func json() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}
