import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// How the client's address is read from a request: the one place the proxy rule lives.
protocol ClientAddressRule: Sendable {
    func address(of request: Request, peer: SocketAddress?) -> String
}

/// The socket peer, or, when the peer is one of the reverse proxies the operator trusts
/// (`--trust-proxy`), the rightmost hop of `X-Forwarded-For` that is not (`TrustedProxies`).
struct ProxyRule: ClientAddressRule {
    let trusted: TrustedProxies

    func address(of request: Request, peer: SocketAddress?) -> String {
        guard !trusted.isEmpty else { return peer?.ipAddress ?? "unknown" }
        return trusted.client(peer: peer?.ipAddress, forwardedFor: request.headers[.xForwardedFor])
    }
}

/// First on every routed request: fills `RequestFacts` with the client's address, and with the
/// request whose session credential is read if a route asks for the caller, so no handler works
/// either out again.
struct RequestFactsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let addresses: any ClientAddressRule
    let authenticator: SessionAuthenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        context.facts.begin(
            clientAddress: AddressGroup.of(addresses.address(of: request, peer: context.remoteAddress)),
            request: request, authenticator: authenticator)
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xXSRFToken = Self("X-XSRF-TOKEN")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
}
