import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// An answer kept for an `Idempotency-Key`: status, the handler's headers (cookies included) and
/// body, sealed with AES-GCM under a key derived from the caller's credential and their key, which
/// the database never holds: a copy of the table reveals no session.
struct KeptAnswer: Codable, Equatable {
    var status: Int
    var headers: [[String]]
    var body: Data

    init(status: Int, headers: [[String]], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(_ response: Response, body bytes: ByteBuffer) {
        status = response.status.code
        headers = response.headers.map { [$0.name.rawName, $0.value] }
        body = Data(bytes.readableBytesView)
    }

    /// The answer again, marked as a replay.
    func response() -> Response {
        var fields = HTTPFields()
        for pair in headers where pair.count == 2 {
            if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
        }
        fields[IdempotentRequest.replayedHeader] = "true"
        return Response(status: HTTPResponse.Status(code: status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(data: body)))
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
