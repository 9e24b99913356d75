import Foundation
import Hummingbird
import OnTheMapModel

/// Builds JSON responses, with the Udacity prefix when the family wants it.
enum JSONResponse {
    /// Encodes `value` (the Udacity family's group adds its prefix).
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        raw(ByteBuffer(data: try JSONWire.encoder().encode(value)), status: status, headers: headers)
    }

    /// A response around bytes that are already JSON.
    static func raw(_ buffer: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = fields[.cacheControl] ?? "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: buffer))
    }

    /// The error in the shape of `family`.
    static func error(_ error: APIError, family: PathFamily) -> Response {
        let (headers, body) = errorParts(error, family: family)
        return raw(body, status: HTTPResponse.Status(code: error.status), headers: headers)
    }

    /// The body (with the prefix when the family wants it) and the headers the error calls for
    /// (`Retry-After`, `Allow`): shared by routed answers and those the HTTP edge makes itself.
    static func errorParts(_ error: APIError, family: PathFamily) -> (headers: HTTPFields, body: ByteBuffer) {
        var headers: HTTPFields = [:]
        if let retryAfter = error.retryAfterSeconds { headers[.retryAfter] = String(retryAfter) }
        if let allowed = error.allowedMethods { headers[.allow] = allowed.joined(separator: ", ") }
        var body = ByteBuffer()
        if family.hasPrefix { body.writeBytes(UdacityPrefix.bytes) }
        // Encoding this struct cannot fail; the fallback keeps the "never an empty body" rule regardless.
        body.writeBytes((try? JSONWire.encoder().encode(family.errorBody(error))) ?? Data(#"{"error":"Internal server error."}"#.utf8))
        return (headers, body)
    }
}
