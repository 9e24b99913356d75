import Logging
import NIOConcurrencyHelpers

/// Tells the other instances that locations changed, once the writes have committed. A `NOTIFY`
/// inside a write transaction would be delivered exactly at its commit, but PostgreSQL serializes
/// the commits of every transaction that notifies (they take one lock through COMMIT), so
/// location writes could not commit together. Instead each write, once committed, waits for a
/// notification sent after it: one is in flight at a time, and it covers every write that
/// committed before it was sent. A write is answered only after that, so every acknowledged write
/// has been announced; a notification that fails is logged and the write still stands (other
/// instances then learn of it with their next notification or reconnection).
final class CommitAnnouncer: Sendable {
    private struct State {
        var sending = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())
    private let send: @Sendable () async throws -> Void
    private let logger: Logger

    init(logger: Logger, send: @escaping @Sendable () async throws -> Void) {
        self.send = send
        self.logger = logger
    }

    /// Returns once a notification sent after this call has been delivered to PostgreSQL.
    func announce() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let startSending = state.withLockedValue { state -> Bool in
                state.waiting.append(continuation)
                if state.sending { return false }
                state.sending = true
                return true
            }
            if startSending { Task { await sendWhileWaiting() } }
        }
    }

    /// Sends one notification for everyone waiting, and again for those who came meanwhile.
    private func sendWhileWaiting() async {
        while true {
            let covered = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                defer { state.waiting = [] }
                if state.waiting.isEmpty { state.sending = false }
                return state.waiting
            }
            if covered.isEmpty { return }
            do {
                try await send()
            } catch {
                logger.warning("Could not tell the other instances about committed location changes: \(error)")
            }
            for waiter in covered { waiter.resume() }
        }
    }
}
