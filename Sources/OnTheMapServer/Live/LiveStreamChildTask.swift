import Hummingbird

/// Runs `work` in a child task and waits for it.
///
/// A live stream is written by its connection's task, which lives as long as the stream, and the
/// Swift runtime keeps every slab of memory a task's async frames have taken until the task ends:
/// the deepest moment of a stream's life (the middleware chain and the route, a database read)
/// would cost it that much for hours, about 20 KB a stream as measured. Deep work done in a child
/// task gives its memory back when it returns.
func inChildTask<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask(operation: work)
        return try await group.next()!
    }
}

/// Runs the middleware chain and the route of a live stream's request in a child task
/// (`inChildTask`), so that its connection's task, which then writes the stream for hours, has
/// only been as deep as the outermost middleware. Other requests run as they come: their task goes
/// back to waiting for the next request.
struct LiveStreamChildTaskMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// Every course's stream, and the default course's at today's path.
    static let streamPath = "/v1/StudentLocation/events"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasSuffix(Self.streamPath) else { return try await next(request, context) }
        // The chain is awaited here before this returns, so it never outlives the call; and it runs
        // in the child alone while this task waits.
        return try await withoutActuallyEscaping(next) { next in
            let chain = UncheckedChain(next: next)
            return try await inChildTask { try await chain.next(request, context) }
        }
    }

    private struct UncheckedChain: @unchecked Sendable {
        let next: (Request, Context) async throws -> Response
    }
}
