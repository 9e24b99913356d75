import Crypto
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModel
import OnTheMapStore

/// A write sent with `Idempotency-Key` (or, on the Parse paths, Parse Server's `X-Parse-Request-Id`),
/// as the store knows it: the key is the caller's own (their credential is part of it, so one
/// caller cannot read another's answer), and the fingerprint tells the same request from a
/// different one sent with the same key.
///
/// What the table holds must not help anyone who steals a copy of it: the fingerprint and the
/// claimant are MACs under the server's secret (`ServerSecret`), which the database never holds,
/// and a password in the body is not in the fingerprint at all. It seals the kept answer instead,
/// together with the caller's credential and key, so that the same key with another password
/// cannot open it (a login's answer carries a session).
struct IdempotentRequest {
    static let keyHeader = HTTPField.Name("Idempotency-Key")!
    static let parseRequestIDHeader = HTTPField.Name("X-Parse-Request-Id")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    static let unsafeMethods: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]

    /// Which header keyed the request, and so what a second request with it gets.
    enum Kind: String, Sendable {
        /// The same request again gets the first answer (`Idempotent-Replayed: true`).
        case idempotencyKey = "idempotency-key"
        /// Parse Server's rule: a second request with the id is refused, code 159.
        case parseRequestID = "x-parse-request-id"
    }

    /// What the store files the key under: a hash of the credential and the key.
    let lookup: String
    /// Seals the kept answer; derived apart from `lookup`, and never stored.
    let secret: SymmetricKey
    /// The method, target and body (its passwords left out).
    let fingerprint: String
    /// Who claims the key, for the bounds on how many one caller and one address hold.
    let claimant: IdempotencyClaimant

    /// The key a write carries; nil for a read, or a write without one (nothing to keep). The
    /// Parse families take `X-Parse-Request-Id` too, as Parse Server does; `Idempotency-Key` wins.
    static func key(of request: Request, family: PathFamily) -> (key: String, kind: Kind)? {
        guard unsafeMethods.contains(request.method) else { return nil }
        if let key = request.headers[keyHeader] { return (key, .idempotencyKey) }
        if family == .parse, let id = request.headers[parseRequestIDHeader] { return (id, .parseRequestID) }
        return nil
    }

    init(_ request: Request, key: String, kind: Kind, body: ByteBuffer, clientAddress: String, serverSecret: ServerSecret) throws(APIError) {
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw kind == .idempotencyKey ? .invalidIdempotencyKey : .invalidParseRequestID
        }
        let credential = [request.headers[.authorization] ?? "", SessionCookies.sessionToken(in: request) ?? ""]
        // The kind too: the same text as either header is two keys.
        let scoped = credential.joined(separator: "\n") + "\n" + kind.rawValue + "\n" + key
        lookup = Identifiers.hex(SHA256.hash(data: Array(("lookup\n" + scoped).utf8)))
        let content = RequestContent(body.readableBytesView)
        secret = SymmetricKey(data: serverSecret.mac("answer", [Array(scoped.utf8), content.passwords]))
        fingerprint = serverSecret.hex("fingerprint", [Array("\(request.method.rawValue) \(request.uri.description)".utf8), content.rest])
        let hasCredential = credential.contains { !$0.isEmpty }
        claimant = IdempotencyClaimant(
            caller: hasCredential ? serverSecret.hex("caller", credential.map { Array($0.utf8) }) : nil,
            // Grouped already (`RequestFacts`: an IPv6 address by its /64).
            address: serverSecret.hex("address", [Array(clientAddress.utf8)]))
    }
}
