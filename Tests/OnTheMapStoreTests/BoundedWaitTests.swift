import Testing
@testable import OnTheMapPostgres

/// `PostgresEngine.close` must end even when a pool does not stop (BoundedWait).
struct BoundedWaitTests {
    @Test func aTaskThatEndsInTimeIsWaitedFor() async {
        let quick = Task { _ = try? await Task.sleep(for: .milliseconds(20)) }
        #expect(await BoundedWait.finishes(quick, within: .seconds(60)))
    }

    @Test func aTaskThatNeverEndsIsLeftBehindAtTheLimit() async {
        // Waits on a stream that never yields nor finishes, and ignores cancellation: a pool that
        // does not stop.
        let (never, keepOpen) = AsyncStream<Void>.makeStream()
        let stuck = Task { for await _ in never {} }
        #expect(await BoundedWait.finishes(stuck, within: .milliseconds(100)) == false)
        keepOpen.finish()
        await stuck.value
    }
}
