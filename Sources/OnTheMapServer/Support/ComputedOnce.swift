import NIOConcurrencyHelpers

/// A value computed on first use, once: callers that ask meanwhile wait for the same computation.
/// A computation that fails is not kept, so the next caller tries again. (The decoy password hash,
/// a static file's gzip form: neither belongs on the path to a server that answers.)
final class ComputedOnce<Value: Sendable>: Sendable {
    private let compute: @Sendable () async throws -> Value
    private let task = NIOLockedValueBox<Task<Value, any Error>?>(nil)

    init(_ compute: @escaping @Sendable () async throws -> Value) { self.compute = compute }

    var value: Value {
        get async throws {
            let running = task.withLockedValue { task in
                if let task { return task }
                let started = Task { [compute] in try await compute() }
                task = started
                return started
            }
            do {
                return try await running.value
            } catch {
                task.withLockedValue { task in if task == running { task = nil } }
                throw error
            }
        }
    }
}
