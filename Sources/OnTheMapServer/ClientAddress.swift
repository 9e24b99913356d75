import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The address a request came from, for throttling: the socket peer, or the first hop of
/// `X-Forwarded-For` when the operator says a trusted reverse proxy sits in front.
enum ClientAddress {
    static func of(_ request: Request, context: AppRequestContext, trustForwardedFor: Bool) -> String {
        if trustForwardedFor, let forwarded = request.headers[.xForwardedFor],
           let first = forwarded.split(separator: ",").first?.trimmingCharacters(in: .whitespaces), !first.isEmpty {
            return first
        }
        return context.remoteAddress?.ipAddress ?? "unknown"
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xXSRFToken = Self("X-XSRF-TOKEN")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
}
