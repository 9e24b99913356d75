import HTTPTypes
import Hummingbird

/// Headers every response carries: no MIME sniffing, no referrer leaks, no framing, the
/// Content-Security-Policy the web client runs under, and HSTS when the public URL is https. Added
/// by `AnswerFinish` on every road. The one answer meant to be framed (a course's embeddable map,
/// `WebController.embedPattern`) sets its own policy, whose `frame-ancestors` allows it: that answer
/// keeps it and gets no `X-Frame-Options`.
struct SecurityHeaders: Sendable {
    let fields: HTTPFields

    init(contentSecurityPolicy: String, publicURL: PublicURL?) {
        var fields: HTTPFields = [
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer",
            .xFrameOptions: "DENY",
            .contentSecurityPolicy: contentSecurityPolicy,
        ]
        // One year, this host only: subdomains may be other services of the school's that are not ours.
        if publicURL?.isSecure == true { fields[.strictTransportSecurity] = "max-age=31536000" }
        self.fields = fields
    }

    func apply(to headers: inout HTTPFields) {
        let ownPolicy = headers[.contentSecurityPolicy] != nil
        for field in fields {
            if ownPolicy, field.name == .contentSecurityPolicy || field.name == .xFrameOptions { continue }
            headers[field.name] = field.value
        }
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let strictTransportSecurity = Self("Strict-Transport-Security")!
}
