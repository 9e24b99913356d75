import Foundation

/// Runs `work` on a thread of its own and waits for it without holding a thread of the concurrency
/// pool. For seconds of CPU in a test (loading the gazetteer in a debug build): on the pool, it held
/// one of the two threads a two-core machine has, and every live server of every suite running
/// beside it answered late, past its client's read timeout.
public func onItsOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
