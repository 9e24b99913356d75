import NIOConcurrencyHelpers

/// Waits for a task for at most a while. Awaiting a task's value cannot be cancelled, so the wait
/// is raced against a timer; whichever loses is left to end on its own.
enum BoundedWait {
    /// Whether `task` ended within `limit`.
    static func finishes(_ task: Task<Void, Never>, within limit: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let unanswered = NIOLockedValueBox<CheckedContinuation<Bool, Never>?>(continuation)
            @Sendable func answer(_ finished: Bool) {
                let waiting = unanswered.withLockedValue { waiting in
                    defer { waiting = nil }
                    return waiting
                }
                waiting?.resume(returning: finished)
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                answer(false)
            }
            Task {
                await task.value
                timer.cancel()
                answer(true)
            }
        }
    }
}
