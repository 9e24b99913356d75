import Hummingbird
import OnTheMapModel

/// Reads request bodies as JSON, whatever `Content-Type` says (clients often send none).
enum RequestJSON {
    static let maxBodyBytes = 64 * 1024

    /// The body bytes; 413 past 64 KiB.
    static func bytes(of request: Request) async throws(APIError) -> ByteBuffer {
        var request = request
        return try await bytes(collecting: &request)
    }

    /// The body bytes, kept in `request` for the handler that reads it next; 413 past 64 KiB.
    static func bytes(collecting request: inout Request) async throws(APIError) -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBodyBytes {
            throw .payloadTooLarge
        }
        do {
            return try await request.collectBody(upTo: maxBodyBytes)
        } catch {
            throw .payloadTooLarge
        }
    }

    /// The body parsed as JSON (`JSONReader`: linear in its size, nesting bounded); `invalidJSON`
    /// when empty, malformed or nested too deep.
    static func value(of request: Request) async throws(APIError) -> JSONValue {
        let buffer = try await bytes(of: request)
        guard buffer.readableBytes > 0 else { throw .invalidJSON("The request body is empty; send a JSON object.") }
        do {
            return try JSONReader.read(buffer.readableBytesView)
        } catch .tooDeep(let limit) {
            throw .invalidJSON("The request body nests arrays and objects more than \(limit) levels deep.")
        } catch {
            throw .invalidJSON()
        }
    }
}
