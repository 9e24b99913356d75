/// What the HTTP edge answers before any route runs (docs/API.md, "Connections"), in the shape of
/// the family the path belongs to; the connection closes after each.
extension APIError {
    /// A request the HTTP parser refused (bad request line, conflicting lengths, a chunk size that
    /// is not hexadecimal).
    public static func unparseable(_ detail: String) -> APIError {
        APIError(status: 400, code: ParseErrorCode.invalidJSON, message: "The request could not be read: \(detail).")
    }

    /// A request line or headers longer than the parser takes.
    public static let requestHeadTooLarge = APIError(
        status: 431, code: ParseErrorCode.invalidJSON, message: "The request's line or headers are too long.")

    /// A method the HTTP parser does not know.
    public static let methodNotImplemented = APIError(
        status: 501, code: ParseErrorCode.operationForbidden, message: "This method is not supported here.")

    /// The client took too long to send its request.
    public static let requestTimeout = APIError(
        status: 408, code: ParseErrorCode.requestLimitExceeded, message: "The request took too long to arrive; send it again.")

    /// The server holds as many connections as it can, and none is idle.
    public static let tooManyConnections = overloaded(message: "The server has as many connections as it can hold; try again in a moment.")

    /// One client address holds as many connections as it may.
    public static let tooManyConnectionsFromAddress = tooManyRequests(
        retryAfter: 1, message: "Too many connections from your network; close some and try again.")
}
