import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// HTTP/1.1 as Hummingbird's own `HTTP1Channel` sets it up, with the edge's handlers around the
/// parser: `RawRequestWatch` below it (connection limits, the start of each request),
/// `RequestPhaseWatch` and `ClientDisconnectWatch` above it (deadlines, answers to requests the
/// parser refuses, clients that hang up), and last `CachedListFastPath` (the default list answered
/// without the router).
struct EdgeHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let edge: HTTPEdge

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let phases = RequestPhaseWatch(limits: edge.limits, finish: edge.finish, registry: edge.registry, logger: logger)
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(RawRequestWatch(
                phases: phases, registry: edge.registry, limitPerAddress: !edge.clientsBehindProxy))
            try operations.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: .init())
            try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try operations.addHandler(phases)
            try operations.addHandler(ClientDisconnectWatch())
            try operations.addHandler(HTTPConnectionStateHandler(idleTimeout: edge.limits.idleTimeout, logger: logger))
            if let cachedList = edge.cachedList { try operations.addHandler(CachedListFastPath(source: cachedList)) }
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// Everything the edge shares across connections: its limits, the registry of open connections,
/// and how the answers it makes itself are finished.
public struct HTTPEdge: Sendable {
    let limits: EdgeLimits
    let registry: ConnectionRegistry
    let finish: AnswerFinish
    /// Behind `--trust-proxy` every connection comes from the proxy: no per-address connection limit.
    let clientsBehindProxy: Bool
    /// Where the default list is answered from without the router; nil leaves every request to it.
    let cachedList: CachedListFastPath.Source?

    init(limits: EdgeLimits, finish: AnswerFinish, clientsBehindProxy: Bool, cachedList: CachedListFastPath.Source? = nil) {
        self.cachedList = cachedList
        self.limits = limits
        self.registry = ConnectionRegistry(maxConnections: limits.maxConnections, maxPerAddress: limits.maxConnectionsPerAddress)
        self.finish = finish
        self.clientsBehindProxy = clientsBehindProxy
    }

    var server: HTTPServerBuilder {
        HTTPServerBuilder { responder in EdgeHTTP1Channel(responder: responder, edge: self) }
    }
}
