import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The few HTTP calls a relying party makes to its provider: discovery, keys, and the code
/// exchange. Bounded in time and size: a slow or huge answer is a provider that is down, and a
/// student waiting on the login page learns so within seconds (a refused connection is retried
/// until the deadline).
struct ProviderHTTP: Sendable {
    var client: HTTPClient = .shared
    var timeout: Duration = .seconds(5)
    static let maxBodyBytes = 1 << 20

    /// A GET's body, when the answer is a 200.
    func get(_ url: URL) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let (status, body) = try await send(request)
        guard status == .ok else { throw SignInFailure.providerUnavailable("GET \(url.absoluteString) answered \(status.code)") }
        return body
    }

    /// A form POST's status and body, whatever the status: the token endpoint's errors are JSON too.
    func postForm(_ url: URL, fields: [(String, String)], basicAuth: (user: String, password: String)?) async throws -> (HTTPResponseStatus, ByteBuffer) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if let basicAuth {
            // RFC 6749 section 2.3.1: each part form-encoded before the two are joined.
            let credentials = Self.formEncoded(basicAuth.user) + ":" + Self.formEncoded(basicAuth.password)
            request.headers.add(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: Self.form(fields)))
        return try await send(request)
    }

    /// Any call (an LTI platform's services): its status, headers and body, whatever the status.
    func call(
        _ method: HTTPMethod, _ url: URL, headers: [(String, String)], body: String? = nil
    ) async throws -> (status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        return try await exchange(request)
    }

    private func send(_ request: HTTPClientRequest) async throws -> (HTTPResponseStatus, ByteBuffer) {
        let (status, _, body) = try await exchange(request)
        return (status, body)
    }

    private func exchange(_ request: HTTPClientRequest) async throws -> (status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer) {
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
            let body = try await response.body.collect(upTo: Self.maxBodyBytes)
            return (response.status, response.headers, body)
        } catch let failure as SignInFailure {
            throw failure
        } catch {
            throw SignInFailure.providerUnavailable("\(request.method.rawValue) \(request.url): \(error)")
        }
    }

    /// `application/x-www-form-urlencoded`.
    static func form(_ fields: [(String, String)]) -> String {
        fields.map { formEncoded($0.0) + "=" + formEncoded($0.1) }.joined(separator: "&")
    }

    /// Every byte but unreserved characters percent-encoded (so `+` and `&` in a secret survive).
    static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
