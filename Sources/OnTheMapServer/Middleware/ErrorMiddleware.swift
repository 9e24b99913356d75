import Hummingbird
import Logging
import OnTheMapModel
import OnTheMapStore

/// Turns every error into a JSON response in the shape of the path family that was called, keeping
/// the real status code; nothing internal (SQL, stack traces) reaches the client.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = Self.apiError(for: error, logger: context.logger)
            var response = JSONResponse.error(apiError, family: context.family(of: request))
            if request.method == .head { response.body = .init() }
            return response
        }
    }

    /// The catalogue entry for any thrown error.
    static func apiError(for error: any Error, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case StoreError.emailTaken:
            return .emailTaken
        case StoreError.busy:
            return .overloaded(message: "Too many writes are waiting; try again in a moment.")
        case StoreError.readTimedOut:
            return .queryTooSlow
        case StoreError.unavailable(let reason):
            logger.warning("Database unavailable: \(reason)")
            return .databaseUnavailable
        case is CancellationError:
            // The server is shutting down, or the client went away: nothing failed.
            logger.debug("Request cancelled")
            return .unavailable
        case let error as HTTPError:
            switch error.status {
            case .notFound: return .notFound("No such endpoint.")
            case .contentTooLarge: return .payloadTooLarge
            case .methodNotAllowed: return .methodNotAllowed(allowed: [])
            case let status where (400..<500).contains(status.code):
                return .refusedByFramework(status: status.code, message: error.body ?? status.reasonPhrase)
            default:
                logger.error("Request failed: \(String(reflecting: error))")
                return .internalError
            }
        default:
            logger.error("Request failed: \(String(reflecting: error))")
            return .internalError
        }
    }
}
