import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import OnTheMapModel

/// An error answer made by the HTTP edge, before any route runs (a request that cannot be parsed,
/// a client too slow, a server full): JSON in the shape of the family the path belongs to, the
/// Udacity prefix on Udacity paths, `Connection: close`, and what `AnswerFinish` adds to every answer.
struct EdgeAnswer {
    /// The route label of the edge's answers in the request metrics.
    static let route = "Edge"
    let head: HTTPResponse
    let body: ByteBuffer
    let family: PathFamily

    init(_ error: APIError, path: String?, finish: AnswerFinish) {
        family = PathFamily.claiming(path ?? "/")
        let (errorHeaders, body) = JSONResponse.errorParts(error, family: family)
        var fields: HTTPFields = [
            .contentType: "application/json; charset=utf-8",
            .cacheControl: "no-store",
            .contentLength: String(body.readableBytes),
            .connection: "close",
        ]
        fields.append(contentsOf: errorHeaders)
        var date = HTTPDate()
        finish.finish(&fields, date: date.now())
        self.head = HTTPResponse(status: .init(code: error.status), headerFields: fields)
        self.body = body
    }

    /// Its log line and metrics. `method` is nil when the request line could not be read.
    func record(_ finish: AnswerFinish, to logger: Logger, method: String?, path: String?, elapsed: Duration) {
        finish.record(
            to: logger, method: method ?? "-", uri: path ?? "-", family: family, route: Self.route, status: Int(head.status.code),
            elapsed: elapsed)
    }

    /// The whole answer as HTTP/1.1 bytes, for a handler that sits below the HTTP codec.
    var bytes: ByteBuffer {
        var out = ByteBuffer()
        // A status made from its code alone has no reason phrase: NIO's table has them all.
        let reason = head.status.reasonPhrase.isEmpty ? HTTPResponseStatus(statusCode: head.status.code).reasonPhrase : head.status.reasonPhrase
        out.writeString("HTTP/1.1 \(head.status.code) \(reason)\r\n")
        for field in head.headerFields { out.writeString("\(field.name.rawName): \(field.value)\r\n") }
        out.writeString("\r\n")
        var body = self.body
        out.writeBuffer(&body)
        return out
    }
}
