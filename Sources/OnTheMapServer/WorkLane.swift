import NIOConcurrencyHelpers
import OnTheMapModel

/// A budget of concurrent work of one kind, with a bounded line of waiters. Work beyond both is
/// refused at once (503 with `Retry-After`) instead of waiting without bound, so a flood of one kind
/// cannot hold up another kind that has its own lane.
final class WorkLane: Sendable {
    private struct State {
        var running = 0
        var nextWaiter = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    let name: String
    let concurrency: Int
    let queueLimit: Int
    private let state = NIOLockedValueBox(State())

    init(name: String, concurrency: Int, queueLimit: Int) {
        self.name = name
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(0, queueLimit)
    }

    /// Runs `operation` once a place is free; throws `APIError.overloaded` when the line is full,
    /// and `CancellationError` when the caller is cancelled while waiting.
    func run<T: Sendable>(_ operation: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await operation()
    }

    /// How many run and how many wait, for tests.
    var load: (running: Int, waiting: Int) { state.withLockedValue { ($0.running, $0.waiters.count) } }

    private func acquire() async throws {
        // The common case takes a place without suspending.
        let id: Int? = state.withLockedValue { state in
            if state.running < concurrency {
                state.running += 1
                return nil
            }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        guard let id else { return }
        // Decided again under the lock that also queues, so a place freed meanwhile is not missed.
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case run, queued, refuse, cancelled }
                let outcome: Outcome = state.withLockedValue { state in
                    if state.running < concurrency {
                        state.running += 1
                        return .run
                    }
                    if Task.isCancelled { return .cancelled }
                    guard state.waiters.count < queueLimit else { return .refuse }
                    state.waiters.append((id, continuation))
                    return .queued
                }
                switch outcome {
                case .run: continuation.resume()
                case .queued: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .refuse:
                    continuation.resume(throwing: APIError.overloaded(message: "Too many \(name) are in progress; try again in a moment."))
                }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Hands the place to the longest waiter, or frees it.
    private func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
            if state.waiters.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}

/// The lanes list reads run in (docs/API.md, "Fairness"): indexed reads and reads that may scan the
/// table each have their own budget, so a flood of expensive queries cannot starve the cheap ones.
/// Writes have theirs in the store's writer (a bounded line of pending writes).
struct ReadLanes: Sendable {
    let cheap: WorkLane
    let expensive: WorkLane

    init(_ configuration: AppConfiguration) {
        cheap = WorkLane(name: "reads", concurrency: configuration.cheapReadConcurrency, queueLimit: configuration.cheapReadQueue)
        expensive = WorkLane(
            name: "expensive queries", concurrency: configuration.expensiveReadConcurrency, queueLimit: configuration.expensiveReadQueue)
    }

    /// The lane for `query`.
    func lane(for query: LocationQuery) -> WorkLane {
        query.isIndexed ? cheap : expensive
    }
}
