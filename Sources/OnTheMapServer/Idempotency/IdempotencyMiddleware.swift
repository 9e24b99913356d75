import Hummingbird
import Logging
import OnTheMapModel
import OnTheMapStore

/// Writes sent with `Idempotency-Key` are done once: the first request claims the key in the
/// database (so every instance behind the proxy sees it), and its answer is kept for a day. The
/// same request sent again gets that answer, marked `Idempotent-Replayed: true`; sent while the
/// first still runs, 409 with `Retry-After`; a different request with the key, 422. Only answers
/// that changed something (2xx) or say why not (409) are kept; any other frees the key, so that
/// refused and anonymous requests leave nothing behind, and one caller or address holds at most
/// `bounds` keys (past them, 429). On the
/// Parse paths, Parse Server's `X-Parse-Request-Id` keys a write too, with Parse's rule: any later
/// request with the id is refused, 400 with code 159 "Duplicate request". See docs/API.md,
/// "Idempotency keys". Inside `ErrorMiddleware`, so its own refusals take the
/// family's shape, and it keeps the error answers its handlers throw.
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let store: any IdempotencyStore
    let clock: WallClock
    let secret: ServerSecret
    let bounds: IdempotencyBounds
    /// A claim this old without an answer was cut off (its process stopped): no request runs so long.
    static let abandonedAfterMillis: Int64 = 60_000
    static let keptForMillis: Int64 = 86_400_000

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let (key, kind) = IdempotentRequest.key(of: request, family: context.family(of: request)) else {
            return try await next(request, context)
        }
        var request = request
        let body = try await RequestJSON.bytes(collecting: &request)
        let keyed = try IdempotentRequest(request, key: key, kind: kind, body: body, clientAddress: context.clientAddress, serverSecret: secret)
        let claim = try await store.claimIdempotencyKey(
            keyed.lookup, fingerprint: keyed.fingerprint, by: keyed.claimant, bounds: bounds, now: clock.nowMillis())
        if claim == .overBound { throw APIError.tooManyIdempotencyKeys }
        // Parse Server refuses any request with an id it has seen, whatever became of the first.
        if kind == .parseRequestID, claim != .claimed { throw APIError.duplicateRequest }
        switch claim {
        case .claimed:
            return try await answerFirst(request, keyed, context: context, next: next)
        case .answered(let fingerprint, let answer):
            // An answer that does not open was sealed for another password (or another secret).
            guard fingerprint == keyed.fingerprint, let kept = try? KeptAnswer.unsealed(answer, with: keyed.secret) else {
                throw APIError.idempotencyKeyReused
            }
            return kept.response()
        case .inProgress(let fingerprint, let since):
            guard fingerprint == keyed.fingerprint else { throw APIError.idempotencyKeyReused }
            throw clock.nowMillis() - since > Self.abandonedAfterMillis
                ? APIError.idempotentRequestOutcomeUnknown : APIError.idempotentRequestInProgress
        case .overBound:
            throw APIError.tooManyIdempotencyKeys
        }
    }

    private func answerFirst(
        _ request: Request, _ keyed: IdempotentRequest, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = JSONResponse.error(ErrorMiddleware.apiError(for: error, logger: context.logger), family: context.family(of: request))
        }
        if !Self.isKept(response.status) {
            do {
                try await store.releaseIdempotencyKey(keyed.lookup)
            } catch {
                context.logger.warning("Could not free an idempotency key (its request will be answered 409 until it expires): \(error)")
            }
            return response
        }
        let body = try await response.body.collected()
        response.body = ResponseBody(byteBuffer: body)
        do {
            try await store.completeIdempotencyKey(keyed.lookup, answer: try KeptAnswer(response, body: body).sealed(with: keyed.secret))
        } catch {
            context.logger.warning("Could not keep an idempotent answer (the same request sent again will be answered 409): \(error)")
        }
        return response
    }

    /// Answers worth keeping: the request changed something (2xx), or was refused for a reason
    /// that holds on a second try (409: the email is taken). Any other changed nothing, and the
    /// same request may run again: refused (400, 401, 403, 404, 422), throttled or unavailable
    /// (429, 503), the client gone (499).
    static func isKept(_ status: HTTPResponse.Status) -> Bool {
        status.kind == .successful || status.code == 409
    }
}
