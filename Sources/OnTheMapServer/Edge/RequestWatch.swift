import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import OnTheMapModel

/// Follows each request on a connection through its phases, at the level of HTTP parts, and
/// answers what the router never sees (docs/API.md, "Connections"):
/// - a request whose head or body takes too long to arrive gets 408 and the connection closes;
/// - a request the HTTP parser refuses gets a JSON 400 (431 for an over-long head, 501 for an
///   unknown method) instead of an empty one;
/// - the connection registry learns when the connection is idle, so that an idle one can make
///   room for a newcomer when the server is full.
///
/// `RawRequestWatch`, below the HTTP parser, tells it when the first byte of a request arrives
/// and the path its request line names (the parser may refuse the request before any head).
final class RequestPhaseWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Phase { case idle, readingHead, readingBody, handling }

    private let limits: EdgeLimits
    private let security: SecurityHeaders
    private let registry: ConnectionRegistry
    private var phase = Phase.idle
    private var responding = false
    /// The router answered before the request had fully arrived (a 413, a refusal): its end then
    /// makes the connection idle, and a deadline closes it without a second answer.
    private var answeredEarly = false
    private var path: String?
    /// When the current phase must be over. A timer is only scheduled for it when a read ends with
    /// the request still unfinished: most requests arrive whole in one read and need none.
    private var due: NIODeadline?
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
    private var context: ChannelHandlerContext?

    init(limits: EdgeLimits, security: SecurityHeaders, registry: ConnectionRegistry) {
        self.limits = limits
        self.security = security
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.task.cancel()
        self.context = nil
    }

    /// Whether the connection waits for a new request (the next bytes begin one).
    var awaitsRequest: Bool { phase == .idle }

    /// The first bytes of a new request arrived (or more of its request line, naming `path`).
    func requestBytesArrived(path sniffed: String?) {
        if let sniffed { path = sniffed }
        guard phase == .idle, let context else { return }
        phase = .readingHead
        registry.setIdle(context.channel, false)
        due = .now() + TimeAmount(limits.headerTimeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            path = head.path.map { String($0.prefix { $0 != "?" }) }
            phase = .readingBody
            due = .now() + TimeAmount(limits.bodyTimeout)
        case .end:
            due = nil
            if answeredEarly {
                becomeIdle(context)
            } else {
                phase = .handling
            }
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        armTimerIfNeeded()
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head: responding = true
        case .end:
            responding = false
            if phase == .handling {
                becomeIdle(context)
            } else if phase != .idle {
                answeredEarly = true
            }
        case .body: break
        }
        context.write(data, promise: promise)
    }

    private func becomeIdle(_ context: ChannelHandlerContext) {
        phase = .idle
        path = nil
        answeredEarly = false
        registry.setIdle(context.channel, true)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Errors of reading a request, before the router has it: answer in JSON and close.
        guard phase == .idle || phase == .readingHead, !responding else {
            context.fireErrorCaught(error)
            return
        }
        answerAndClose(context, Self.apiError(for: error))
    }

    private static func apiError(for error: any Error) -> APIError {
        switch error as? HTTPParserError {
        case .invalidMethod?: return .methodNotImplemented
        case .headerOverflow?:
            return APIError(status: 431, code: ParseErrorCode.invalidJSON, message: "The request's line or headers are too long.")
        case .some(let parserError): return .unparseable("\(parserError)")
        case nil: return .unparseable("malformed request")
        }
    }

    /// Schedules the timer for `due` when a request is still arriving and no timer fires by then.
    private func armTimerIfNeeded() {
        guard let due, let context else { return }
        if let timer {
            if timer.deadline <= due { return }
            timer.task.cancel()
        }
        let loop = context.eventLoop
        let task = loop.scheduleTask(deadline: due) { [weak self] in
            loop.preconditionInEventLoop()
            self?.timerFired()
        }
        timer = (task, due)
    }

    private func timerFired() {
        timer = nil
        guard let context, let due, phase == .readingHead || phase == .readingBody else { return }
        // The phase may have moved on and set a later deadline meanwhile: wait for that one.
        guard NIODeadline.now() >= due else { return armTimerIfNeeded() }
        if responding || answeredEarly {
            context.close(promise: nil)
        } else {
            answerAndClose(context, .requestTimeout)
        }
    }

    private func answerAndClose(_ context: ChannelHandlerContext, _ error: APIError) {
        timer?.task.cancel()
        due = nil
        let answer = EdgeAnswer(error, path: path, security: security)
        responding = true
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}

/// Below the HTTP parser: admits the connection into the registry (or refuses it, full), and
/// tells `RequestPhaseWatch` when a request's bytes begin and which path its request line names.
final class RawRequestWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let phases: RequestPhaseWatch
    private let registry: ConnectionRegistry
    private let security: SecurityHeaders
    private let limitPerAddress: Bool
    private var admitted = false
    /// The request line read so far, until its end (at most 8 KiB are kept).
    private var requestLine: [UInt8] = []
    private var requestLineDone = false

    init(phases: RequestPhaseWatch, registry: ConnectionRegistry, security: SecurityHeaders, limitPerAddress: Bool) {
        self.phases = phases
        self.registry = registry
        self.security = security
        self.limitPerAddress = limitPerAddress
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if !admitted { admit(context) }
        context.fireChannelActive()
    }

    /// Removed when the connection closes, however it closes.
    func handlerRemoved(context: ChannelHandlerContext) {
        registry.remove(context.channel)
    }

    private func admit(_ context: ChannelHandlerContext) {
        admitted = true
        let address = limitPerAddress ? context.channel.remoteAddress?.ipAddress : nil
        let refusal: APIError
        switch registry.admit(context.channel, address: address) {
        case .admitted: return
        case .full: refusal = .tooManyConnections
        case .fullFromThisAddress:
            refusal = .tooManyRequests(retryAfter: 1, message: "Too many connections from your network; close some and try again.")
        }
        context.writeAndFlush(NIOAny(EdgeAnswer(refusal, path: nil, security: security).bytes)).whenComplete { _ in
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if phases.awaitsRequest {
            requestLine = []
            requestLineDone = false
        }
        phases.requestBytesArrived(path: sniffPath(bytes))
        context.fireChannelRead(data)
    }

    /// The path of the current request's line once the line is complete.
    private func sniffPath(_ bytes: ByteBuffer) -> String? {
        guard !requestLineDone else { return nil }
        requestLine.append(contentsOf: bytes.readableBytesView.prefix(8192 - requestLine.count))
        guard let end = requestLine.firstIndex(of: UInt8(ascii: "\n")) ?? (requestLine.count >= 8192 ? requestLine.endIndex : nil) else {
            return nil
        }
        requestLineDone = true
        let parts = requestLine[..<end].split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard parts.count >= 2 else { return nil }
        let target = parts[1].prefix { $0 != UInt8(ascii: "?") }
        guard target.first == UInt8(ascii: "/") else { return nil }
        return String(decoding: target, as: UTF8.self)
    }
}
