import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1
import OnTheMapModel
import OnTheMapStore

/// The tool calling a platform's services (Names and Role Provisioning, Assignment and Grade
/// Services) with an access token of its own: the 1EdTech Security Framework's client credentials
/// grant, where the tool proves who it is with a JWT signed by its key (RFC 7523), which the
/// platform checks against the tool's published keys. Tokens are kept per platform and scope set
/// until a minute before they expire. A platform that cannot be reached, refuses or answers
/// something unreadable is `Unavailable`, said in words for the log.
actor LTIServiceClient {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private let keys: LTIToolKeys
    private let http: ProviderHTTP
    private var tokens: [String: (token: String, expires: Date)] = [:]

    init(keys: LTIToolKeys, http: ProviderHTTP = ProviderHTTP()) {
        self.keys = keys
        self.http = http
    }

    static let membershipScope = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
    static let lineItemScope = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
    static let scoreScope = "https://purl.imsglobal.org/spec/lti-ags/scope/score"

    /// A JSON GET: its body and the next page's URL (a `Link` header's `rel="next"`), if any.
    func get(_ url: String, accept: String, scope: String, platform: LTIPlatform) async throws -> (body: ByteBuffer, next: String?) {
        let (status, headers, body) = try await call(.GET, url, scope: scope, platform: platform, headers: [("Accept", accept)])
        guard status == .ok else { throw Unavailable(description: "GET \(url) answered \(status.code)") }
        return (body, headers["Link"].lazy.compactMap(Self.nextLink).first)
    }

    /// A JSON POST of `body` as `contentType`; the answer's body.
    func post(_ url: String, body: some Encodable, contentType: String, scope: String, platform: LTIPlatform) async throws -> ByteBuffer {
        let json = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        let (status, _, answer) = try await call(
            .POST, url, scope: scope, platform: platform, headers: [("Content-Type", contentType), ("Accept", "application/json")], body: json)
        guard (200..<300).contains(status.code) else { throw Unavailable(description: "POST \(url) answered \(status.code)") }
        return answer
    }

    private func call(
        _ method: HTTPMethod, _ url: String, scope: String, platform: LTIPlatform, headers: [(String, String)], body: String? = nil
    ) async throws -> (HTTPResponseStatus, HTTPHeaders, ByteBuffer) {
        guard let target = URL(string: url), SignInProvider.isAllowedEndpoint(target) else { throw Unavailable(description: "unusable service URL \(url)") }
        var token = try await token(scope: scope, platform: platform)
        for attempt in 0..<2 {
            let answer = try await exchange(method, target, headers: headers + [("Authorization", "Bearer \(token)")], body: body)
            // A token the platform forgot (restarted, revoked): one new token, once.
            guard answer.0 == .unauthorized, attempt == 0 else { return answer }
            tokens[Self.tokenKey(platform, scope)] = nil
            token = try await self.token(scope: scope, platform: platform)
        }
        throw Unavailable(description: "\(url) refused a new access token")
    }

    private func exchange(_ method: HTTPMethod, _ url: URL, headers: [(String, String)], body: String?) async throws -> (HTTPResponseStatus, HTTPHeaders, ByteBuffer) {
        do {
            return try await http.call(method, url, headers: headers, body: body)
        } catch {
            throw Unavailable(description: "\(method.rawValue) \(url.absoluteString): \(error)")
        }
    }

    private static func tokenKey(_ platform: LTIPlatform, _ scope: String) -> String { "\(platform.id) \(scope)" }

    /// An access token for `scope` at `platform`: kept, or asked for with a client assertion.
    private func token(scope: String, platform: LTIPlatform) async throws -> String {
        let key = Self.tokenKey(platform, scope)
        if let kept = tokens[key], kept.expires > Date() { return kept.token }
        guard let url = URL(string: platform.tokenURL) else { throw Unavailable(description: "unusable token URL \(platform.tokenURL)") }
        // Whole seconds: some platforms' JWT libraries refuse fractional times.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let assertion = try await keys.sign(ClientAssertion(
            issuer: IssuerClaim(value: platform.clientID), subject: SubjectClaim(value: platform.clientID), audience: AudienceClaim(value: [platform.tokenURL]),
            issuedAt: IssuedAtClaim(value: now), expires: ExpirationClaim(value: now.addingTimeInterval(300)), id: IDClaim(value: Identifiers.token())))
        let (status, _, body) = try await exchange(.POST, url, headers: [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"),
        ], body: ProviderHTTP.form([
            ("grant_type", "client_credentials"), ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("client_assertion", assertion), ("scope", scope),
        ]))
        guard status == .ok, let granted = try? JSONDecoder().decode(TokenAnswer.self, from: Data(buffer: body)), !granted.accessToken.isEmpty else {
            throw Unavailable(description: "the token endpoint \(platform.tokenURL) answered \(status.code)")
        }
        tokens[key] = (granted.accessToken, now.addingTimeInterval(Double(max(0, (granted.expiresIn ?? 3600) - 60))))
        return granted.accessToken
    }

    /// `<https://…?page=2>; rel="next"` → the URL.
    static func nextLink(_ header: String) -> String? {
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = pieces.first, first.hasPrefix("<"), first.hasSuffix(">"),
                  pieces.dropFirst().contains(where: { $0.replacingOccurrences(of: "\"", with: "").lowercased() == "rel=next" }) else { continue }
            return String(first.dropFirst().dropLast())
        }
        return nil
    }

    private struct TokenAnswer: Decodable {
        let accessToken: String
        let expiresIn: Int?
        enum CodingKeys: String, CodingKey { case accessToken = "access_token", expiresIn = "expires_in" }
    }

    /// The tool's proof of itself at the token endpoint (RFC 7523, 1EdTech Security Framework 4.1.1).
    private struct ClientAssertion: JWTPayload {
        let issuer: IssuerClaim
        let subject: SubjectClaim
        let audience: AudienceClaim
        let issuedAt: IssuedAtClaim
        let expires: ExpirationClaim
        let id: IDClaim

        enum CodingKeys: String, CodingKey { case issuer = "iss", subject = "sub", audience = "aud", issuedAt = "iat", expires = "exp", id = "jti" }

        func verify(using _: some JWTAlgorithm) throws {}
    }
}
