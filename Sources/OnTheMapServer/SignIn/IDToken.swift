import Foundation
import JWTKit

/// The claims of an OpenID Connect ID token that sign-in reads (OpenID Connect Core 1.0, 2 and 5.1).
/// Its signature is checked by jwt-kit against the provider's published keys; everything else by
/// `check`, which knows what this login expects.
struct IDToken: JWTIdentityToken {
    let issuer: IssuerClaim
    let subject: SubjectClaim
    let audience: AudienceClaim
    let expires: ExpirationClaim
    let issuedAt: IssuedAtClaim
    let authorizedPresenter: String?
    let nonce: String?
    let email: String?
    /// A JSON boolean, or the string "true" (some providers write it so).
    let emailVerified: BoolClaim?
    let name: String?
    let givenName: String?
    let familyName: String?

    enum CodingKeys: String, CodingKey {
        case issuer = "iss", subject = "sub", audience = "aud", expires = "exp", issuedAt = "iat"
        case authorizedPresenter = "azp", nonce, email, emailVerified = "email_verified", name
        case givenName = "given_name", familyName = "family_name"
    }

    /// Called by jwt-kit once the signature holds; the checks that need this login's values are in
    /// `check`.
    func verify(using _: some JWTAlgorithm) throws {}

    /// Clocks of provider and server may differ by this much.
    static let clockSkew: TimeInterval = 60

    /// The rules of OpenID Connect Core 3.1.3.7 that the signature and audience checks leave: the
    /// issuer is the provider's, the token is current, it was made for this login (`nonce`), and if
    /// it names an authorized party, that party is this client.
    func check(issuer expectedIssuer: String, clientID: String, nonce expectedNonce: String, now: Date) throws(SignInFailure) {
        if let reason = Self.failedCheck(
            issuer: issuer.value, expected: expectedIssuer, expires: expires.value, issuedAt: issuedAt.value, nonce: nonce, expected: expectedNonce, now: now) {
            throw .invalidToken(reason)
        }
        if let authorizedPresenter, authorizedPresenter != clientID {
            throw .invalidToken("azp is \(authorizedPresenter), not this client")
        }
        guard !subject.value.isEmpty, subject.value.utf8.count <= 255 else {
            throw .invalidToken("sub is empty or longer than 255 bytes")
        }
    }
}

extension IDToken {
    /// What every token of an OpenID Connect login is checked for beside its signature and
    /// audience (Core 3.1.3.7, items 2, 9, 10 and 11; an LTI launch's id_token too): the issuer
    /// expected, current within `clockSkew`, and made for this login (`nonce`). The reason it
    /// fails, or nil.
    static func failedCheck(
        issuer: String, expected expectedIssuer: String, expires: Date, issuedAt: Date, nonce: String?, expected expectedNonce: String, now: Date
    ) -> String? {
        if issuer != expectedIssuer { return "iss is \(issuer), not \(expectedIssuer)" }
        if now.addingTimeInterval(-clockSkew) >= expires { return "expired at \(expires)" }
        if issuedAt > now.addingTimeInterval(clockSkew) { return "issued in the future, at \(issuedAt)" }
        guard let nonce, !nonce.isEmpty, nonce == expectedNonce else { return "nonce does not match this login's" }
        return nil
    }
}
