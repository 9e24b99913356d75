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
    /// How long one notification may take before the writes it covers are answered without it.
    private let timeout: Duration

    init(timeout: Duration, logger: Logger, send: @escaping @Sendable () async throws -> Void) {
        self.timeout = timeout
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
            await sendWithinTimeout()
            for waiter in covered { waiter.resume() }
        }
    }

    /// Sends one notification, giving up on it after `timeout`: a notification is worth a short
    /// wait only, and one stuck on a connection the database is dropping must not hold the writes
    /// it covers, which have committed.
    private func sendWithinTimeout() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let waiting = NIOLockedValueBox<CheckedContinuation<Void, Never>?>(done)
            let finish: @Sendable () -> Void = { waiting.withLockedValue { continuation in defer { continuation = nil }; return continuation }?.resume() }
            Task { [send, logger] in
                do {
                    try await send()
                } catch {
                    logger.warning("Could not tell the other instances about committed location changes: \(error)")
                }
                finish()
            }
            Task { [timeout, logger] in
                try? await Task.sleep(for: timeout)
                if waiting.withLockedValue({ $0 != nil }) {
                    logger.warning("Telling the other instances about committed location changes took over \(timeout); going on without it")
                }
                finish()
            }
        }
    }
}
