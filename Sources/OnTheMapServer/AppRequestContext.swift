import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage plus the peer address (for throttling) and the
/// connection (to notice a client that has gone, `untilClientLeaves`).
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    let channel: any Channel
    /// The logged-in caller, once a guard in front of the route has found them (`AdminGuard`).
    var caller: Caller?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.channel = source.channel
    }

    /// Bodies over 64 KiB are refused with 413 (api-contract.md section 5.6).
    public var maxUploadSize: Int { RequestJSON.maxBodyBytes }
}
