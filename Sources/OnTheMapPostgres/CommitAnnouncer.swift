import Logging
import NIOConcurrencyHelpers
import OnTheMapModel

/// Tells the other instances that locations changed, once the writes have committed. A `NOTIFY`
/// inside a write transaction would be delivered exactly at its commit, but PostgreSQL serializes
/// the commits of every transaction that notifies (they take one lock through COMMIT), so
/// location writes could not commit together. Instead each write, once committed, waits for a
/// notification sent after it: one is in flight at a time, and it covers every write that
/// committed before it was sent. A write is answered only after that, so every acknowledged write
/// has been announced; a notification that fails is logged and the write still stands (other
/// instances then learn of it with their next notification or reconnection). A notification
/// names the courses of the writes it covers (nil: a write whose course is not one, such as a
/// restore, so every course).
final class CommitAnnouncer: Sendable {
    private struct State {
        var sending = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// The courses of the waiting writes; nil once one of them concerns every course.
        var courses: Set<CourseID>? = []
    }

    private let state = NIOLockedValueBox(State())
    private let send: @Sendable (Set<CourseID>?) async throws -> Void
    private let logger: Logger
    /// How long one notification may take before the writes it covers are answered without it.
    private let timeout: Duration

    init(timeout: Duration, logger: Logger, send: @escaping @Sendable (Set<CourseID>?) async throws -> Void) {
        self.timeout = timeout
        self.send = send
        self.logger = logger
    }

    /// The courses `changes` concern, nil when one concerns every course.
    static func courses(of changes: [LocationChange.Kind]) -> Set<CourseID>? {
        var courses: Set<CourseID> = []
        for change in changes {
            guard let course = change.course else { return nil }
            courses.insert(course)
        }
        return courses
    }

    /// Returns once a notification naming `courses` (or every course), sent after this call, has
    /// been delivered to PostgreSQL.
    func announce(courses: Set<CourseID>?) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let startSending = state.withLockedValue { state -> Bool in
                state.waiting.append(continuation)
                if let courses, let named = state.courses { state.courses = named.union(courses) } else { state.courses = nil }
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
            let (covered, courses) = state.withLockedValue { state -> ([CheckedContinuation<Void, Never>], Set<CourseID>?) in
                defer { (state.waiting, state.courses) = ([], []) }
                if state.waiting.isEmpty { state.sending = false }
                return (state.waiting, state.courses)
            }
            if covered.isEmpty { return }
            await sendWithinTimeout(courses)
            for waiter in covered { waiter.resume() }
        }
    }

    /// Sends one notification, giving up on it after `timeout`: a notification is worth a short
    /// wait only, and one stuck on a connection the database is dropping must not hold the writes
    /// it covers, which have committed.
    private func sendWithinTimeout(_ courses: Set<CourseID>?) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let waiting = NIOLockedValueBox<CheckedContinuation<Void, Never>?>(done)
            let finish: @Sendable () -> Void = { waiting.withLockedValue { continuation in defer { continuation = nil }; return continuation }?.resume() }
            Task { [send, logger] in
                do {
                    try await send(courses)
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
