/// Every error the API reports, as a value. The server's error middleware, and its HTTP edge before
/// any route runs, render it in the wire shape of the path family that was called (Udacity, v1
/// StudentLocation, Parse), so the catalogue holds both the HTTP status and Parse's error code. The
/// catalogue is this file, `APIError+Connections.swift` (the edge's), `APIError+Admin.swift`,
/// `APIError+Courses.swift` and `APIError+LTI.swift` (answered as pages).
public struct APIError: Error, Sendable, Equatable {
    /// HTTP status code.
    public internal(set) var status: Int
    /// Parse error code, used by the Parse and v1 StudentLocation shapes.
    public internal(set) var code: Int
    /// Human-readable message, safe to show (never SQL, never a stack trace).
    public internal(set) var message: String
    /// The offending request parameter, when one is to blame (`udacity.username`, `mediaURL`, …).
    public internal(set) var parameter: String?
    /// Seconds to wait, sent as `Retry-After` (429, 503, 409).
    public internal(set) var retryAfterSeconds: Int?
    /// Allowed methods, sent as `Allow` with 405.
    public internal(set) var allowedMethods: [String]?

    /// Only the catalogue makes or changes entries (its files are this module's `APIError*.swift`);
    /// other modules throw one of them, so docs/API.md's table of errors stays the whole story.
    /// `ErrorCatalogueTests` holds this module's other files, and the server's, to the same rule.
    init(status: Int, code: Int, message: String, parameter: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.parameter = parameter
    }
}

/// Parse's error codes (see Parse Server's `ParseError`), the ones this API uses.
public enum ParseErrorCode {
    public static let internalServerError = 1
    public static let objectNotFound = 101
    public static let invalidQuery = 102
    public static let invalidJSON = 107
    public static let incorrectType = 111
    public static let objectTooLarge = 116
    public static let operationForbidden = 119
    public static let validationError = 142
    public static let requestLimitExceeded = 155
    /// Parse Server's answer to a request it has seen before (its `X-Parse-Request-Id`).
    public static let duplicateRequest = 159
    public static let emailTaken = 203
    public static let invalidSessionToken = 209
}

extension APIError {
    /// The body is not JSON, or not the JSON object expected.
    public static func invalidJSON(_ message: String = "The request body is not a valid JSON object.") -> APIError {
        APIError(status: 400, code: ParseErrorCode.invalidJSON, message: message)
    }

    /// A query parameter (`where`, `limit`, `order`, …) is malformed.
    public static func invalidQuery(_ message: String, parameter: String? = nil) -> APIError {
        APIError(status: 400, code: ParseErrorCode.invalidQuery, message: message, parameter: parameter)
    }

    /// A body field has the wrong JSON type.
    public static func incorrectType(_ field: String, expected: String) -> APIError {
        APIError(status: 400, code: ParseErrorCode.incorrectType, message: "\(field) must be \(expected).", parameter: field)
    }

    /// A field is missing or its value breaks a rule.
    public static func validation(_ field: String, _ message: String) -> APIError {
        APIError(status: 400, code: ParseErrorCode.validationError, message: message, parameter: field)
    }

    /// The Udacity login body holds zero or several credential objects, or is not JSON.
    public static let credentialCount = APIError(
        status: 400, code: ParseErrorCode.invalidJSON, message: "Did not specify exactly one credential.")

    /// The Udacity login body lacks `udacity.username` or `udacity.password`.
    public static func missingCredentialField(_ parameter: String) -> APIError {
        let field = parameter.split(separator: ".").last.map(String.init) ?? parameter
        return APIError(status: 400, code: ParseErrorCode.validationError,
                        message: "Missing parameter '\(field)'.", parameter: parameter)
    }

    /// Unknown email or wrong password: one answer for both, so accounts cannot be discovered.
    public static let invalidCredentials = APIError(
        status: 403, code: ParseErrorCode.operationForbidden, message: "Account not found or invalid credentials.")

    /// The right password for an account an admin has disabled: said plainly, since only someone
    /// who knows the password learns it.
    public static let accountDisabled = APIError(
        status: 403, code: ParseErrorCode.operationForbidden, message: "This account has been disabled by an admin of this map.")

    /// A write needs a live session.
    public static let loginRequired = APIError(
        status: 401, code: ParseErrorCode.invalidSessionToken,
        message: "You must be logged in: POST /v1/session first, then send the session cookie or an Authorization: Bearer header.")

    /// The caller may not do this (someone else's location, a cross-site request, …).
    public static func forbidden(_ message: String) -> APIError {
        APIError(status: 403, code: ParseErrorCode.operationForbidden, message: message)
    }

    /// No such object, user or route.
    public static func notFound(_ message: String = "Not found.") -> APIError {
        APIError(status: 404, code: ParseErrorCode.objectNotFound, message: message)
    }

    /// The path exists but not with this method.
    public static func methodNotAllowed(allowed: [String]) -> APIError {
        var error = APIError(status: 405, code: ParseErrorCode.operationForbidden,
                             message: "Method not allowed; use \(allowed.joined(separator: ", ")).")
        error.allowedMethods = allowed
        return error
    }

    /// Another refusal (4xx) that the HTTP framework raised itself, with its text or its status's
    /// reason phrase: one the server's own code never throws.
    public static func refusedByFramework(status: Int, message: String) -> APIError {
        APIError(status: status, code: ParseErrorCode.invalidJSON, message: message)
    }

    /// Request bodies are limited to 64 KiB.
    public static let payloadTooLarge = APIError(
        status: 413, code: ParseErrorCode.objectTooLarge, message: "The request body is larger than 64 KiB.")

    /// A caller, or a client address, holds as many idempotency keys as it may (a day's worth).
    public static let tooManyIdempotencyKeys: APIError = {
        var error = APIError(
            status: 429, code: ParseErrorCode.requestLimitExceeded,
            message: "Too many writes with an Idempotency-Key from this account or address today; try again later.")
        error.retryAfterSeconds = 60
        return error
    }()

    /// Too many attempts; try again after `retryAfter` seconds.
    public static func tooManyRequests(retryAfter: Int, message: String = "Too many requests; try again later.") -> APIError {
        var error = APIError(status: 429, code: ParseErrorCode.requestLimitExceeded, message: message)
        error.retryAfterSeconds = max(1, retryAfter)
        return error
    }

    /// Sign-up with an email that already has an account.
    public static let emailTaken = APIError(
        status: 409, code: ParseErrorCode.emailTaken, message: "An account with this email already exists.", parameter: "email")

    /// An `Idempotency-Key` header that is empty, too long or not visible ASCII.
    public static let invalidIdempotencyKey = APIError(
        status: 400, code: ParseErrorCode.invalidJSON,
        message: "Idempotency-Key must be 1 to 255 visible ASCII characters.", parameter: "Idempotency-Key")

    /// An `X-Parse-Request-Id` header that is empty, too long or not visible ASCII.
    public static let invalidParseRequestID = APIError(
        status: 400, code: ParseErrorCode.invalidJSON,
        message: "X-Parse-Request-Id must be 1 to 255 visible ASCII characters.", parameter: "X-Parse-Request-Id")

    /// A Parse write whose `X-Parse-Request-Id` came before: Parse Server's own answer.
    public static let duplicateRequest = APIError(status: 400, code: ParseErrorCode.duplicateRequest, message: "Duplicate request")

    /// The key came with a different request before (another method, path or body).
    public static let idempotencyKeyReused = APIError(
        status: 422, code: ParseErrorCode.duplicateRequest,
        message: "This Idempotency-Key was sent with a different request; use a new key for a new request.", parameter: "Idempotency-Key")

    /// The first request with this key has not been answered yet.
    public static let idempotentRequestInProgress: APIError = {
        var error = APIError(status: 409, code: ParseErrorCode.duplicateRequest,
                             message: "A request with this Idempotency-Key is still being answered; try again in a moment.")
        error.retryAfterSeconds = 1
        return error
    }()

    /// The first request with this key was never answered: the server taking it stopped, and
    /// whether it made its change is unknown.
    public static let idempotentRequestOutcomeUnknown = APIError(
        status: 409, code: ParseErrorCode.duplicateRequest,
        message: "The first request with this Idempotency-Key was cut off and may or may not have made its change; look before sending it again with a new key.")

    /// Something failed on our side; details go to the log, not to the client.
    public static let internalError = APIError(
        status: 500, code: ParseErrorCode.internalServerError, message: "Internal server error.")

    /// The database does not answer.
    public static let unavailable = APIError(
        status: 503, code: ParseErrorCode.internalServerError, message: "Service unavailable.")

    /// The database does not answer right now (restarting, unreachable, out of space): try again.
    public static let databaseUnavailable = overloaded(
        retryAfter: 2, message: "The database is not available right now; nothing was changed. Try again in a moment.")

    /// `/readyz` while the server cannot serve, with why.
    public static func notReady(_ reason: String) -> APIError {
        var error = APIError(status: 503, code: ParseErrorCode.internalServerError, message: "Not ready: \(reason)")
        error.retryAfterSeconds = 2
        return error
    }

    /// The server has as much of this kind of work in hand as it takes; try again after `retryAfter`.
    public static func overloaded(retryAfter: Int = 1, message: String = "The server is busy; try again in a moment.") -> APIError {
        var error = APIError(status: 503, code: ParseErrorCode.internalServerError, message: message)
        error.retryAfterSeconds = max(1, retryAfter)
        return error
    }

    /// A query ran past its time budget and was stopped.
    public static let queryTooSlow = overloaded(
        message: "The query took too long and was stopped; ask for less (a smaller skip, an indexed order or where), or try again.")

    /// The gazetteer is still loading (a moment after start).
    public static let geocoderLoading = overloaded(message: "The geocoder is still loading; try again in a moment.")

    /// The client closed its connection before the answer was ready, and its work was stopped.
    /// Nobody reads this answer; the status is nginx's 499 so that request logs say what happened.
    public static let clientGone = APIError(
        status: 499, code: ParseErrorCode.internalServerError, message: "The client closed the connection before the answer was ready.")
}
