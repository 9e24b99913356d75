import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import OnTheMapModel

/// Follows each request on a connection through its phases, at the level of HTTP parts, and
/// answers what the router never sees (docs/API.md, "Connections"):
/// - a request whose head or body takes too long to arrive gets 408 and the connection closes;
/// - a request the HTTP parser refuses, its head or its chunked body, gets a JSON 400 (431 for an
///   over-long head, 501 for an unknown method) instead of an empty one;
/// - a chunked body whose first chunk alone is over the body limit gets 413 at once;
/// - the connection registry learns when the connection is idle, so that an idle one can make
///   room for a newcomer when the server is full.
///
/// `RawRequestWatch`, below the HTTP parser, tells it when the first byte of a request arrives
/// and the path its request line names (the parser may refuse the request before any head); it
/// also answers `CONNECT` itself (below the parser, whose encoder would drop the body of any answer
/// to it) and reads the size of a chunked body's first chunk.
final class RequestPhaseWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Phase { case idle, readingHead, readingBody, handling }

    private let limits: EdgeLimits
    private let finish: AnswerFinish
    private let registry: ConnectionRegistry
    private let logger: Logger
    private var phase = Phase.idle
    private var responding = false
    /// The router answered before the request had fully arrived (a 413, a refusal): its end then
    /// makes the connection idle, and a deadline closes it without a second answer.
    private var answeredEarly = false
    private var path: String?
    private var method: String?
    private var started = NIODeadline.now()
    /// Heads the parser has passed up on this connection, so that `RawRequestWatch` knows when one
    /// ended within the bytes it just passed on.
    private(set) var headsSeen = 0
    /// The current request's body is chunked and the size of its first chunk is not read yet. Its
    /// parts wait in `held` meanwhile, so that a request refused for it never reaches the router.
    private(set) var awaitsFirstChunkSize = false
    private var held: [HTTPRequestPart] = []
    /// When the current phase must be over. A timer is only scheduled for it when a read ends with
    /// the request still unfinished: most requests arrive whole in one read and need none.
    private var due: NIODeadline?
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
    private var context: ChannelHandlerContext?

    init(limits: EdgeLimits, finish: AnswerFinish, registry: ConnectionRegistry, logger: Logger) {
        self.limits = limits
        self.finish = finish
        self.registry = registry
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.task.cancel()
        self.context = nil
    }

    /// Whether the connection waits for a new request (the next bytes begin one).
    var awaitsRequest: Bool { phase == .idle }

    /// Whether the current request may still be answered here: nothing has been answered yet.
    var mayAnswer: Bool { !responding && !answeredEarly }

    /// The first bytes of a new request arrived (or more of its request line, naming `method` and `path`).
    func requestBytesArrived(method sniffedMethod: String?, path sniffed: String?) {
        if let sniffed { path = sniffed }
        if let sniffedMethod { method = sniffedMethod }
        guard phase == .idle, let context else { return }
        started = .now()
        phase = .readingHead
        registry.setIdle(context.channel, false)
        due = .now() + TimeAmount(limits.headerTimeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let head):
            path = head.path.map { String($0.prefix { $0 != "?" }) }
            method = head.method.rawValue
            headsSeen += 1
            awaitsFirstChunkSize = head.headerFields[.transferEncoding]?.lowercased().contains("chunked") ?? false
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
        if awaitsFirstChunkSize { return held.append(part) }
        context.fireChannelRead(data)
    }

    /// `RawRequestWatch` read the first chunk's size, within the limit: the request goes on.
    func firstChunkSizeAccepted() {
        awaitsFirstChunkSize = false
        let parts = held
        held = []
        for part in parts { context?.fireChannelRead(wrapInboundOut(part)) }
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
        method = nil
        answeredEarly = false
        registry.setIdle(context.channel, true)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Errors of reading a request (its head, or a chunked body the parser cannot read) while
        // nothing has answered it: answer in JSON and close. The error goes no further, so
        // the router, which may be reading that body, never answers it too; its handler meets the
        // closed connection. A request already answered, or being answered, is only closed.
        guard phase != .handling, !responding, !answeredEarly else {
            context.fireErrorCaught(error)
            return
        }
        answerAndClose(context, Self.apiError(for: error))
    }

    private static func apiError(for error: any Error) -> APIError {
        switch error as? HTTPParserError {
        case .invalidMethod?: return .methodNotImplemented
        case .headerOverflow?: return .requestHeadTooLarge
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
        let answer = EdgeAnswer(error, path: path, finish: finish)
        record(answer)
        responding = true
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        context.write(wrapOutboundOut(.body(answer.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    /// The log line and metrics of an answer made at the edge.
    private func record(_ answer: EdgeAnswer) {
        let elapsed = NIODeadline.now() - started
        answer.record(finish, to: logger, method: method, path: path, elapsed: .nanoseconds(elapsed.nanoseconds))
    }

    /// The answer `RawRequestWatch` sends below the parser, recorded: the request is over, and so is
    /// the connection.
    func answeredBelowParser(_ error: APIError) -> EdgeAnswer {
        timer?.task.cancel()
        due = nil
        responding = true
        awaitsFirstChunkSize = false
        held = []
        let answer = EdgeAnswer(error, path: path, finish: finish)
        record(answer)
        return answer
    }
}

/// Below the HTTP parser: admits the connection into the registry (or refuses it, full), tells
/// `RequestPhaseWatch` when a request's bytes begin and what its request line names, answers
/// `CONNECT` (a tunnel this service never opens: 405 in the path's family shape), and refuses at
/// once a chunked body whose first chunk alone is over the body limit (413), where waiting for it
/// would hold the connection until the body deadline.
final class RawRequestWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let phases: RequestPhaseWatch
    private let registry: ConnectionRegistry
    private let limitPerAddress: Bool
    private var admitted = false
    /// The request line read so far, until its end (at most 8 KiB are kept).
    private var requestLine: [UInt8] = []
    private var requestLineDone = false
    /// The first chunk's size line read so far, while it is awaited.
    private var chunkSizeLine: [UInt8]?
    /// Nothing more is read once this handler has answered.
    private var closing = false

    init(phases: RequestPhaseWatch, registry: ConnectionRegistry, limitPerAddress: Bool) {
        self.phases = phases
        self.registry = registry
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
        case .fullFromThisAddress: refusal = .tooManyConnectionsFromAddress
        }
        answerAndClose(context, refusal)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if closing { return }
        let bytes = unwrapInboundIn(data)
        if phases.awaitsRequest {
            requestLine = []
            requestLineDone = false
            chunkSizeLine = nil
        }
        let line = sniffRequestLine(bytes)
        phases.requestBytesArrived(method: line?.method, path: line?.path)
        if line?.method == "CONNECT" {
            return answerAndClose(context, .methodNotAllowed(allowed: KnownMethodsMiddleware.allowed))
        }
        let headsBefore = phases.headsSeen
        context.fireChannelRead(data)
        if phases.awaitsFirstChunkSize, !closing {
            readFirstChunkSize(bytes, headEndedHere: phases.headsSeen != headsBefore, context: context)
        }
    }

    /// The method and path of the current request's line once the line is complete.
    private func sniffRequestLine(_ bytes: ByteBuffer) -> (method: String, path: String?)? {
        guard !requestLineDone else { return nil }
        requestLine.append(contentsOf: bytes.readableBytesView.prefix(8192 - requestLine.count))
        guard let end = requestLine.firstIndex(of: UInt8(ascii: "\n")) ?? (requestLine.count >= 8192 ? requestLine.endIndex : nil) else {
            return nil
        }
        requestLineDone = true
        let parts = requestLine[..<end].split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard parts.count >= 2 else { return nil }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = parts[1].prefix { $0 != UInt8(ascii: "?") }
        guard target.first == UInt8(ascii: "/") else { return (method, nil) }
        return (method, String(decoding: target, as: UTF8.self))
    }

    /// Reads the hexadecimal size that opens a chunked body: from the end of the head when the head
    /// ended in `bytes`, else from the start of `bytes`.
    private func readFirstChunkSize(_ bytes: ByteBuffer, headEndedHere: Bool, context: ChannelHandlerContext) {
        let view = bytes.readableBytesView
        var start = view.startIndex
        if headEndedHere {
            start = Self.endOfHead(in: view) ?? view.endIndex
            chunkSizeLine = []
        }
        guard var line = chunkSizeLine else { return }
        for byte in view[start...] {
            guard let digit = QueryString.hexValue(byte) else {
                // The size ends at its extension, or its line's end.
                chunkSizeLine = nil
                return phases.firstChunkSizeAccepted()
            }
            line.append(digit)
            if Self.isOverLimit(line) {
                chunkSizeLine = nil
                return answerAndClose(context, .payloadTooLarge)
            }
        }
        chunkSizeLine = line
    }

    /// Where the body begins: after the blank line that ends the head (or, when that line began in
    /// the previous read, after the first line feed here).
    private static func endOfHead(in view: ByteBufferView) -> ByteBufferView.Index? {
        let blankLine: [UInt8] = [13, 10, 13, 10]
        var index = view.startIndex
        while index + 4 <= view.endIndex {
            if view[index] == 13, view[index ..< index + 4].elementsEqual(blankLine) { return index + 4 }
            index += 1
        }
        return view.firstIndex(of: 10).map { $0 + 1 }
    }

    /// Whether the hexadecimal digits so far already name more than the body limit.
    private static func isOverLimit(_ digits: [UInt8]) -> Bool {
        var value = 0
        for digit in digits.drop(while: { $0 == 0 }) {
            value = value * 16 + Int(digit)
            if value > RequestJSON.maxBodyBytes { return true }
        }
        return false
    }

    private func answerAndClose(_ context: ChannelHandlerContext, _ error: APIError) {
        guard phases.mayAnswer else { return context.close(promise: nil) }
        closing = true
        let answer = phases.answeredBelowParser(error)
        context.writeAndFlush(NIOAny(answer.bytes)).whenComplete { _ in context.close(promise: nil) }
    }
}
