import NIOConcurrencyHelpers
import OnTheMapModel

/// A budget of concurrent work of one kind, with a bounded line of waiters. Work beyond both is
/// refused at once instead of waiting without bound, so a flood of one kind cannot hold up another
/// kind that has its own lane.
///
/// Work may carry a key (the client's address, for password hashing). A freed place goes to the
/// waiting key with the least work running, and among those to the one served longest ago, so a
/// burst under one key delays another key's work by at most the time one piece of work takes.
/// `perKeyLimit` bounds what one key may have running and waiting at once.
final class WorkLane: Sendable {
    private struct Waiter {
        let ticket: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiting = 0
        var lastTicket = 0
        /// Waiters per key, in arrival order.
        var lines: [String: [Waiter]] = [:]
        /// Keys with waiters, in the order they began to wait.
        var waitingKeys: [String] = []
        /// Running, and running plus waiting, work per key (only keys with some).
        var runningPerKey: [String: Int] = [:]
        var heldPerKey: [String: Int] = [:]
        /// When each key holding work last took a place (a counter, not a time).
        var lastServed: [String: Int] = [:]
        var served = 0

        /// The waiting key to serve next: least work running, then served longest ago.
        var nextKey: String? {
            waitingKeys.min { (runningPerKey[$0] ?? 0, lastServed[$0] ?? 0) < (runningPerKey[$1] ?? 0, lastServed[$1] ?? 0) }
        }

        mutating func serve(_ key: String) {
            runningPerKey[key, default: 0] += 1
            served += 1
            lastServed[key] = served
        }

        /// One piece of `key`'s work is over (done, or left the line).
        mutating func drop(_ key: String, running: Bool) {
            if running { WorkLane.lower(&runningPerKey, key) }
            WorkLane.lower(&heldPerKey, key)
            if heldPerKey[key] == nil { lastServed[key] = nil }
        }
    }

    let name: String
    let concurrency: Int
    let queueLimit: Int
    let perKeyLimit: Int?
    private let state = NIOLockedValueBox(State())

    init(name: String, concurrency: Int, queueLimit: Int, perKeyLimit: Int? = nil) {
        self.name = name
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(0, queueLimit)
        self.perKeyLimit = perKeyLimit.map { max(1, $0) }
    }

    /// Runs `operation` once a place is free. Throws `APIError.overloaded` (503) when the line is
    /// full, `APIError.tooManyRequests` (429) when `key` already holds `perKeyLimit` places, and
    /// `CancellationError` when the caller is cancelled while waiting.
    func run<T: Sendable>(key: String = "", _ operation: () async throws -> T) async throws -> T {
        try await acquire(key)
        defer { release(key) }
        return try await operation()
    }

    /// How many run and how many wait, for tests.
    var load: (running: Int, waiting: Int) { state.withLockedValue { ($0.running, $0.waiting) } }

    private enum Admission { case run, wait(ticket: Int), refuse(APIError) }

    private func acquire(_ key: String) async throws {
        // The common case takes a place without suspending.
        let admission: Admission = state.withLockedValue { state in
            if let refusal = refusal(for: key, in: state, toWait: false) { return .refuse(refusal) }
            if take(key, in: &state) { return .run }
            state.lastTicket += 1
            return .wait(ticket: state.lastTicket)
        }
        guard case .wait(let ticket) = admission else {
            if case .refuse(let error) = admission { throw error }
            return
        }
        // Decided again under the lock that also queues, so a place freed meanwhile is not missed.
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case run, queued, cancelled, refuse(APIError) }
                let outcome: Outcome = state.withLockedValue { state in
                    if take(key, in: &state) { return .run }
                    if Task.isCancelled { return .cancelled }
                    if let refusal = refusal(for: key, in: state, toWait: true) { return .refuse(refusal) }
                    if state.lines[key] == nil { state.waitingKeys.append(key) }
                    state.lines[key, default: []].append(Waiter(ticket: ticket, continuation: continuation))
                    state.waiting += 1
                    state.heldPerKey[key, default: 0] += 1
                    return .queued
                }
                switch outcome {
                case .run: continuation.resume()
                case .queued: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .refuse(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> Waiter? in
                guard var line = state.lines[key], let index = line.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                let waiter = line.remove(at: index)
                state.waiting -= 1
                state.drop(key, running: false)
                Self.setLine(line, for: key, in: &state)
                return waiter
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Why `key` may not have more work now, if it may not.
    private func refusal(for key: String, in state: State, toWait: Bool) -> APIError? {
        if let perKeyLimit, state.heldPerKey[key, default: 0] >= perKeyLimit {
            return .tooManyRequests(retryAfter: 1, message: "Too many \(name) at once from your network; try again in a moment.")
        }
        if toWait && state.waiting >= queueLimit {
            return .overloaded(message: "Too many \(name) are in progress; try again in a moment.")
        }
        return nil
    }

    /// Takes a free place for `key` when nobody waits for one.
    private func take(_ key: String, in state: inout State) -> Bool {
        guard state.running < concurrency, state.waiting == 0 else { return false }
        state.running += 1
        state.serve(key)
        state.heldPerKey[key, default: 0] += 1
        return true
    }

    /// Hands the place to the next waiter by the fairness rule above, or frees it.
    private func release(_ key: String) {
        let next = state.withLockedValue { state -> Waiter? in
            state.drop(key, running: true)
            guard let chosen = state.nextKey, var line = state.lines[chosen] else {
                state.running -= 1
                return nil
            }
            let waiter = line.removeFirst()
            state.waiting -= 1
            state.serve(chosen)
            Self.setLine(line, for: chosen, in: &state)
            return waiter
        }
        next?.continuation.resume()
    }

    private static func setLine(_ line: [Waiter], for key: String, in state: inout State) {
        if line.isEmpty {
            state.lines[key] = nil
            state.waitingKeys.removeAll { $0 == key }
        } else {
            state.lines[key] = line
        }
    }

    fileprivate static func lower(_ counts: inout [String: Int], _ key: String) {
        let count = (counts[key] ?? 0) - 1
        counts[key] = count > 0 ? count : nil
    }
}
