import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModel

/// An answer kept for an `Idempotency-Key`: status, the handler's headers (cookies included) and
/// body, sealed with AES-GCM under a key derived from the caller's credential and their key, which
/// the database never holds: a copy of the table reveals no session. A body over `maxBodyBytes`
/// is kept as its SHA-256 only, so that no answer (one echoing a long path, say) fills the table.
struct KeptAnswer: Codable, Equatable {
    static let maxBodyBytes = 8 * 1024

    var status: Int
    var headers: [[String]]
    var body: Data
    /// The SHA-256 of a body too large to keep (then `body` is empty).
    var bodySHA256: String?

    init(status: Int, headers: [[String]], body: Data, bodySHA256: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodySHA256 = bodySHA256
    }

    init(_ response: Response, body bytes: ByteBuffer) {
        status = response.status.code
        headers = response.headers.map { [$0.name.rawName, $0.value] }
        guard bytes.readableBytes > Self.maxBodyBytes else {
            body = Data(bytes.readableBytesView)
            return
        }
        body = Data()
        bodySHA256 = Identifiers.hex(SHA256.hash(data: Data(bytes.readableBytesView)))
        headers.removeAll { [HTTPField.Name.contentLength.canonicalName, HTTPField.Name.contentType.canonicalName].contains($0.first?.lowercased()) }
    }

    /// The answer again, marked as a replay; for a body kept as its digest, a JSON note in its place.
    func response() -> Response {
        var fields = HTTPFields()
        for pair in headers where pair.count == 2 {
            if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
        }
        fields[IdempotentRequest.replayedHeader] = "true"
        var replayed = body
        if let bodySHA256 {
            fields[.contentType] = "application/json; charset=utf-8"
            replayed = Data("""
                {"bodySHA256":"\(bodySHA256)","note":"The first answer to this Idempotency-Key was over \(Self.maxBodyBytes / 1024) KiB, so only its status and digest were kept.","status":\(status)}
                """.utf8)
        }
        return Response(status: HTTPResponse.Status(code: status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(data: replayed)))
    }

    func sealed(with key: SymmetricKey) throws -> String {
        guard let combined = try AES.GCM.seal(try JSONEncoder().encode(self), using: key).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return combined.base64EncodedString()
    }

    static func unsealed(_ text: String, with key: SymmetricKey) throws -> KeptAnswer {
        guard let combined = Data(base64Encoded: text) else { throw CryptoKitError.incorrectParameterSize }
        return try JSONDecoder().decode(KeptAnswer.self, from: try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key))
    }
}
