import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP relay from a port of 127.0.0.1 to a database server, which a test can take away (every
/// connection closed, new ones refused) and bring back on the same port: a database host lost and
/// found, or a second "host" that is the same server under another port.
final class TCPRelay: Sendable {
    let port: Int
    private let target: (host: String, port: Int)
    private let channels = NIOLockedValueBox<(listening: (any Channel)?, relayed: [any Channel])>((nil, []))

    private init(port: Int, target: (host: String, port: Int)) {
        self.port = port
        self.target = target
    }

    /// A relay to `host:port` on a free port; listening unless `listening` is false.
    static func to(host: String, port: Int, listening: Bool = true) async throws -> TCPRelay {
        let probe = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let free = probe.localAddress?.port ?? 0
        try await probe.close()
        let relay = TCPRelay(port: free, target: (host, port))
        if listening { try await relay.listen() }
        return relay
    }

    /// Takes connections again.
    func listen() async throws {
        let target = target
        let channels = channels
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                channels.withLockedValue { $0.relayed.append(inbound) }
                return ClientBootstrap(group: inbound.eventLoop)
                    .channelInitializer { outbound in
                        channels.withLockedValue { $0.relayed.append(outbound) }
                        return outbound.eventLoop.makeCompletedFuture { try outbound.pipeline.syncOperations.addHandler(Forward(to: inbound)) }
                    }
                    .connect(host: target.host, port: target.port)
                    .flatMapThrowing { outbound in
                        try inbound.pipeline.syncOperations.addHandler(Forward(to: outbound))
                        inbound.setOption(.autoRead, value: true).whenComplete { _ in }
                    }
                    .flatMapErrorThrowing { error in
                        inbound.close(promise: nil)
                        throw error
                    }
            }
            .bind(host: "127.0.0.1", port: port).get()
        channels.withLockedValue { $0.listening = server }
    }

    /// Refuses new connections and closes every one relayed so far, as a machine lost would.
    func stop() async {
        let (listening, relayed) = channels.withLockedValue { channels in
            defer { channels = (nil, []) }
            return channels
        }
        try? await listening?.close()
        for channel in relayed { try? await channel.close() }
    }
}

/// Writes what one side reads to the other, and closes the other when this side closes.
private final class Forward: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let other: any Channel

    init(to other: any Channel) { self.other = other }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        other.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        other.close(promise: nil)
        context.fireChannelInactive()
    }
}
