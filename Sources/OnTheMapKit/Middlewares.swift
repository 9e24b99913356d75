internal import Foundation
import HTTPTypes
internal import OpenAPIRuntime

typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

/// The Udacity family's answers (`/v1/session`, `/v1/users/…`) start with the five bytes `)]}'\n`,
/// a guard against JSON hijacking that every old app strips by hand. Stripped here, once.
struct UdacityPrefixStripping: ClientMiddleware {
    static let prefix = Array(")]}'\n".utf8)

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard operationID.hasPrefix("udacity-"), let responseBody else { return (response, responseBody) }
        let bytes = try await Data(collecting: responseBody, upTo: 1 << 20)
        return (response, HTTPBody(Self.stripped(bytes)))
    }

    static func stripped(_ bytes: Data) -> Data {
        bytes.starts(with: prefix) ? bytes.dropFirst(prefix.count) : bytes
    }
}

/// Every answer other than 2xx (and 304) becomes an `OnTheMapError`, read from whichever of the
/// three error shapes the family sends, so the façade only ever handles success.
struct ErrorAnswers: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        let status = response.status.code
        guard status >= 300, status != 304 else { return (response, responseBody) }
        var bytes = Data()
        if let responseBody { bytes = try await Data(collecting: responseBody, upTo: 1 << 20) }
        throw OnTheMapError(
            status: status, body: UdacityPrefixStripping.stripped(bytes),
            retryAfter: response.headerFields[.retryAfter].flatMap(Int.init).map { .seconds($0) }, operationID: operationID)
    }
}

/// Sends the stored session as `Authorization: Bearer`, the native apps' way (no cookies, so no
/// cross-site rules apply).
struct BearerSession: ClientMiddleware {
    let store: any SessionStore

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.headerFields[.authorization] == nil, let session = try await store.load() {
            request.headerFields[.authorization] = "Bearer \(session.id)"
        }
        return try await next(request, body, baseURL)
    }
}

/// Every write carries an `Idempotency-Key` made once for it, so that a write whose answer was lost
/// (the network dropped on the way back) can be sent again and is done once: the server answers the
/// repeat with the first answer. A request that failed on the network is sent once more, after a
/// moment; reads are safe to repeat anyway. The event stream is left alone (it has its own retry).
struct RetryOnceWithKey: ClientMiddleware {
    var pause: Duration = .milliseconds(250)

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.method != .get, request.method != .head, request.headerFields[.idempotencyKey] == nil {
            request.headerFields[.idempotencyKey] = UUID().uuidString
        }
        do {
            return try await next(request, body, baseURL)
        } catch let error as ClientError where error.underlyingError is OnTheMapError || error.underlyingError is CancellationError {
            throw error
        } catch where operationID != "v1-events" && body?.iterationBehavior != .single && !Task.isCancelled {
            try await Task.sleep(for: pause)
            return try await next(request, body, baseURL)
        }
    }
}

/// Sends an operation to another path of the same shape: LegacyClient reaches `/1/classes/…` and
/// `/api/session` through the operations generated for `/parse/classes/…` and `/v1/session`.
struct PathRewriting: ClientMiddleware {
    /// Path prefixes and what they become; the first that matches is used.
    let prefixes: [(from: String, to: String)]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let path = request.path, let rule = prefixes.first(where: { path.hasPrefix($0.from) }) {
            request.path = rule.to + path.dropFirst(rule.from.count)
        }
        return try await next(request, body, baseURL)
    }
}

extension HTTPField.Name {
    static let idempotencyKey = named("Idempotency-Key")
    static let lastEventID = named("Last-Event-ID")

    /// A name written here as a literal: only a name with characters HTTP forbids could fail.
    private static func named(_ name: String) -> HTTPField.Name {
        guard let field = HTTPField.Name(name) else { preconditionFailure("\(name) is not a valid HTTP field name") }
        return field
    }
}
