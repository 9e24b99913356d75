import Crypto
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModel

/// A write sent with `Idempotency-Key`, as the store knows it: the key is the caller's own (their
/// credential is part of it, so one caller cannot read another's answer), and the fingerprint
/// tells the same request from a different one sent with the same key.
struct IdempotentRequest {
    static let keyHeader = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    static let unsafeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]

    /// What the store files the key under: a hash of the credential and the key.
    let lookup: String
    /// Seals the kept answer; derived apart from `lookup`, and never stored.
    let secret: SymmetricKey
    /// The method, target and body.
    let fingerprint: String

    /// The key a write carries; nil for a read, or a write without one (nothing to keep).
    static func key(of request: Request) -> String? {
        unsafeMethods.contains(request.method) ? request.headers[keyHeader] : nil
    }

    init(_ request: Request, key: String, body: ByteBuffer) throws(APIError) {
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .invalidIdempotencyKey
        }
        let credential = [request.headers[.authorization] ?? "", request.cookies[SessionCookies.sessionName]?.value ?? ""]
        let scoped = credential.joined(separator: "\n") + "\n" + key
        lookup = Identifiers.hex(SHA256.hash(data: Array(("lookup\n" + scoped).utf8)))
        secret = SymmetricKey(data: SHA256.hash(data: Array(("answer\n" + scoped).utf8)))
        var target = Array("\(request.method.rawValue) \(request.uri.description)\n".utf8)
        target.append(contentsOf: body.readableBytesView)
        fingerprint = Identifiers.hex(SHA256.hash(data: target))
    }
}
