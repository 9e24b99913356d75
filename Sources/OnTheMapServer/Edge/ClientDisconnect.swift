import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import OnTheMapModel

/// Notices, per connection, that the client has gone: it closed its side (the server reads end of
/// input) or the connection dropped. Hummingbird does not cancel a handler when that happens, so an
/// expensive query would run, or wait in its lane, for nobody. A handler that asks
/// (`AppRequestContext.untilClientLeaves`) is cancelled instead, and the cancelled read is
/// interrupted inside SQLite.
///
/// Like Go's `net/http`, a client that half-closes its connection after sending a request counts as
/// gone: browsers, HTTP libraries and nginx never do that while they wait for an answer.
final class ClientDisconnectWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// Succeeds once, when the client has gone. Confined to the channel's event loop; requests read
    /// only its `futureResult`, which is safe from any thread.
    private var gone: EventLoopPromise<Void>?
    private var isGone = false

    func handlerAdded(context: ChannelHandlerContext) {
        gone = context.eventLoop.makePromise(of: Void.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Removed when the connection closes: nobody is there any more, and a promise must not be
        // left unfulfilled.
        markGone()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .some(.inputClosed) = event as? ChannelEvent { markGone() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        markGone()
        context.fireChannelInactive()
    }

    private func markGone() {
        guard !isGone else { return }
        isGone = true
        gone?.succeed()
    }

    /// The moment the client of `channel` goes, or nil when the connection has no watch (the router
    /// test client's channel).
    static func clientGone(on channel: any Channel) async -> EventLoopFuture<Void>? {
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: ClientDisconnectWatch.self).gone?.futureResult
        }.get()
    }
}

extension AppRequestContext {
    /// Runs `operation`, cancelling it if the client goes before it ends; the request then fails with
    /// `APIError.clientGone`, which nobody reads. For work worth stopping (expensive queries): it
    /// costs one hop to the connection's event loop.
    func untilClientLeaves<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let gone = await ClientDisconnectWatch.clientGone(on: channel) else { return try await operation() }
        let (departure, announce) = AsyncStream<Void>.makeStream()
        gone.whenComplete { _ in announce.finish() }
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                // Ends when the client goes, or when this task is cancelled because the work ended.
                for await _ in departure {}
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw APIError.clientGone }
            return value
        }
    }
}
