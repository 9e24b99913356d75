import Hummingbird
import NIOCore
import OnTheMapModel

/// The request context: Hummingbird's core storage, the peer address, the connection (to notice a
/// client that has gone, `untilClientLeaves`), and what the middleware learns about the request once
/// (`RequestFacts`): the client's address, its path family, its caller.
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    let channel: any Channel
    /// Shared by every middleware and the handler of this one request (a reference, so that what an
    /// inner route group learns is seen by the middleware outside it).
    let facts = RequestFacts()

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.channel = source.channel
    }

    /// Bodies over 64 KiB are refused with 413 (docs/API.md, "Path families and error shapes").
    public var maxUploadSize: Int { RequestJSON.maxBodyBytes }

    /// Where the request came from, by the proxy rule (`RequestFactsMiddleware`).
    var clientAddress: String { facts.clientAddress }

    /// The course the request is for: the default one at the root.
    var course: CourseID { facts.course }

    /// Where the request's course is mounted: `/c/{slug}`, or nothing at today's paths.
    var coursePath: String { facts.mountedCourse.map { CourseMount.path(of: $0.slug) } ?? "" }

    /// The logged-in caller, or nil: looked up on first use, at most once per request.
    func caller() async throws -> Caller? { try await facts.caller() }

    /// The logged-in caller, or 401.
    func requireCaller() async throws -> Caller {
        guard let caller = try await caller() else { throw APIError.loginRequired }
        return caller
    }
}
