import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes
import OnTheMapModel
import OnTheMapStore
import Synchronization

/// Answers a course's default list from the cache on the connection's event loop, without handing the
/// request to the router: every app asks for it on start and on every refresh, and the hand-over
/// to Swift concurrency and back costs more than the rest of the answer (BENCHMARKS.md, "The HTTP
/// edge"). Only a plain `GET` of a list path (at the root, or under `/c/{slug}` for a course the
/// directory remembers, anyone may read, and that shows everyone full names) whose query means the default list (none, or
/// `limit=100&order=-updatedAt` as the apps send it) with no body is taken, and only while the
/// cache holds the list and no earlier request on the connection is still being answered
/// (responses leave in request order). Everything else goes to the router as before. The answer is
/// `CachedListAnswer` finished by the router's own `AnswerFinish`, so the bytes are the router's.
final class CachedListFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What every connection's handler shares.
    struct Source: Sendable {
        let cache: LatestListCache
        /// What `/c/{slug}` names, as far as it is remembered.
        let courses: CourseDirectory
        /// The list paths at the root, each with its family.
        let listPaths: [String: PathFamily]
        let maxListLimit: Int
        let maxSkip: Int
        /// Headers, log line and metrics, as on the router's road.
        let finish: AnswerFinish
        let logger: Logger
        /// Answers made here, for tests and metrics.
        let answered = AnswerCount()
    }

    final class AnswerCount: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    private let source: Source
    /// Requests handed to the router and not yet answered: while there is one, later requests go
    /// to the router too, so that answers keep their order.
    private var withRouter = 0
    /// The request being answered here, from its head to its end.
    private var taken: (head: HTTPRequest, list: ListPath, started: NIODeadline)?
    /// A request answered here asked to close: nothing more is read, as with the router.
    private var closing = false
    /// The whole head of the last answer: a connection mostly asks for the same again, and then only
    /// its date changes.
    private var lastHead: (tag: String, status: HTTPResponse.Status, fields: HTTPFields)?
    private var clock = HTTPDate()

    init(source: Source) { self.source = source }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if closing { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if withRouter == 0, let list = Self.takeableList(head, source) {
                taken = (head, list, .now())
                return
            }
            withRouter += 1
        case .body:
            if taken != nil { return }
        case .end:
            if let (head, list, started) = taken {
                taken = nil
                answer(head, list: list, started: started, context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { withRouter -= 1 }
        context.write(data, promise: promise)
    }

    /// A list path taken here: whose list, in which family, under which route.
    struct ListPath {
        let course: CourseID
        let family: PathFamily
        let route: String
    }

    /// The list a bodiless GET of a default list asks for. Whether the cache holds it is asked
    /// once, at the end.
    private static func takeableList(_ head: HTTPRequest, _ source: Source) -> ListPath? {
        guard head.method == .get, let target = head.path,
              head.headerFields[.contentLength] ?? "0" == "0", head.headerFields[.transferEncoding] == nil else { return nil }
        let question = target.firstIndex(of: "?")
        guard let list = listPath(target[..<(question ?? target.endIndex)], source) else { return nil }
        if let question {
            let parameters = QueryString.parse(String(target[target.index(after: question)...]))
            guard let query = try? LocationQuery.parse(parameters, maxLimit: source.maxListLimit, maxSkip: source.maxSkip),
                  query.isDefaultList else { return nil }
        }
        return list
    }

    /// A root list path, or one under `/c/{slug}` of a course remembered as readable by anyone;
    /// any other course's goes to the router, which looks it up and checks the caller.
    private static func listPath(_ path: Substring, _ source: Source) -> ListPath? {
        let whole = String(path)
        if let family = source.listPaths[whole] { return ListPath(course: .default, family: family, route: whole) }
        guard path.hasPrefix("/c/"), let slash = path.dropFirst(3).firstIndex(of: "/"),
              let family = source.listPaths[String(path[slash...])],
              let slug = CourseSlug(rawValue: String(path[path.index(path.startIndex, offsetBy: 3)..<slash])),
              case .some(.some(let course)) = source.courses.remembered(slug), course.isReadableByAnyone,
              // Whose names a reader sees there depends on who they are: the router asks.
              course.namesShown == .full else { return nil }
        return ListPath(course: course.id, family: family, route: CourseMount.namedRoutePrefix + path[slash...])
    }

    private func answer(_ head: HTTPRequest, list: ListPath, started: NIODeadline, context: ChannelHandlerContext) {
        guard let entry = source.cache.current(.init(list.course)) else {
            // Not cached (the first request after a change): the router answers, and fills the cache.
            withRouter += 1
            context.fireChannelRead(wrapInboundOut(.head(head)))
            context.fireChannelRead(wrapInboundOut(.end(nil)))
            return
        }
        source.answered.add()
        let answer = CachedListAnswer(entry, acceptEncoding: head.headerFields[.acceptEncoding], ifNoneMatch: head.headerFields[.ifNoneMatch])
        var fields: HTTPFields
        if let lastHead, lastHead.tag == answer.tag, lastHead.status == answer.status {
            fields = lastHead.fields
            fields[.date] = clock.now()
        } else {
            fields = answer.headers
            if let body = answer.body { fields[.contentLength] = String(body.readableBytes) }
            source.finish.finish(&fields, date: clock.now())
        }
        lastHead = (answer.tag, answer.status, fields)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: answer.status, headerFields: fields))), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        // Hummingbird's own rule (HTTP/1.0 requests arrive with `Connection: close` too): finish
        // the output and let the client close.
        if head.headerFields[.connection] == "close" {
            closing = true
            context.close(mode: .output, promise: nil)
        }
        let elapsed = NIODeadline.now() - started
        source.finish.record(
            to: source.logger, method: "GET", uri: head.path ?? "", family: list.family, route: list.route,
            status: answer.status.code, elapsed: .nanoseconds(elapsed.nanoseconds))
    }
}
