import Foundation
import Logging
import NIOConcurrencyHelpers
import OnTheMapModel
import OnTheMapStore

/// This instance's view of the location event log, fanned out to its live streams. It is poked
/// whenever something may have committed (this instance's own writes, another instance's
/// notification, another process's write to the SQLite file) and then reads the log from the last
/// id it has seen: one reader per instance, in id order, reading only ids that are final (see
/// `LocationEventStore`), so that no event can appear later below the last one seen. Each stream
/// serves one course and is handed that course's events only (and every course's `reload`).
final class LocationEventHub: Sendable {
    /// What a stream receives.
    enum Item: Sendable {
        case event(LocationEvent)
        case heartbeat
        /// The stream ends here: its client reconnects, and resumes from the log.
        case end(reason: String)
    }

    /// One stream's place in the hub, until `cancel`.
    struct Subscription: Sendable {
        /// The last event id the hub had published when the stream subscribed: the stream gets
        /// every event after it, and must catch up from the log to it by itself.
        let publishedUpTo: Int64
        let items: AsyncStream<Item>
        fileprivate let id: UUID
        fileprivate let continuation: AsyncStream<Item>.Continuation
        fileprivate let hub: LocationEventHub

        func heartbeat() { continuation.yield(.heartbeat) }
        func cancel() { hub.remove(id) }
    }

    private struct State {
        var lastID: Int64?
        var draining = false
        var pokedAgain = false
        var subscribers: [UUID: (course: CourseID, continuation: AsyncStream<Item>.Continuation)] = [:]
    }

    private let store: any LocationEventStore
    private let logger: Logger
    /// Events a stream may have waiting before it is ended (its client reconnects and catches up
    /// from the log, rather than the instance holding an unbounded queue for a slow reader).
    private let bufferPerStream: Int
    private let pageSize = 500
    private static let firstHeldBackWait = Duration.milliseconds(5)
    /// How long events may stay held back before the log says why the live map stands still.
    private static let heldBackWarning = Duration.seconds(10)
    private let state = NIOLockedValueBox(State())

    init(store: any LocationEventStore, logger: Logger, bufferPerStream: Int = 1024) {
        self.store = store
        self.logger = logger
        self.bufferPerStream = bufferPerStream
    }

    /// Something may have committed: read the log (once more, if a read is already running).
    func poke() {
        let start = state.withLockedValue { state -> Bool in
            if state.draining {
                state.pokedAgain = true
                return false
            }
            state.draining = true
            return true
        }
        if start { Task { await drain() } }
    }

    /// Registers a stream of `course`. Its items start with the course's events after `publishedUpTo`.
    func subscribe(to course: CourseID) async throws -> Subscription {
        try await startIfNeeded()
        let (items, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingOldest(bufferPerStream))
        let id = UUID()
        let publishedUpTo = state.withLockedValue { state in
            state.subscribers[id] = (course, continuation)
            return state.lastID ?? 0
        }
        return Subscription(publishedUpTo: publishedUpTo, items: items, id: id, continuation: continuation, hub: self)
    }

    /// The id the hub starts from is the newest in the log when it is first used: history before
    /// that is for streams that catch up, not for broadcasting.
    private func startIfNeeded() async throws {
        guard state.withLockedValue({ $0.lastID == nil }) else { return }
        let newest = try await store.locationEventRange()?.upperBound ?? 0
        state.withLockedValue { state in
            if state.lastID == nil { state.lastID = newest }
        }
    }

    private func drain() async {
        // Held-back events (an older transaction still running) are read again after a wait that
        // grows while they stay held back: nothing pokes the hub when that transaction ends.
        var heldBackWait = Self.firstHeldBackWait
        var heldBackSince: ContinuousClock.Instant?
        var heldBackReported = false
        while true {
            do {
                try await startIfNeeded()
                let after = state.withLockedValue { $0.lastID ?? 0 }
                let batch = try await store.locationEventBatch(after: after, limit: pageSize, in: nil)
                publish(batch.events)
                if batch.events.count == pageSize { continue }
                if batch.heldBack {
                    let since = heldBackSince ?? .now
                    heldBackSince = since
                    if !heldBackReported, since.duration(to: .now) > Self.heldBackWarning {
                        // Operators see why the live map stands still while the list moves.
                        logger.warning("Live events held back for over \(Self.heldBackWarning) by a write transaction still open on the database cluster (docs/API.md, \"Live events\")")
                        heldBackReported = true
                    }
                    try? await Task.sleep(for: heldBackWait)
                    heldBackWait = min(heldBackWait * 2, .seconds(1))
                    continue
                }
                heldBackWait = Self.firstHeldBackWait
                if heldBackReported { logger.notice("Live events flow again") }
                (heldBackSince, heldBackReported) = (nil, false)
            } catch {
                logger.warning("Could not read the location event log: \(error)")
                try? await Task.sleep(for: .seconds(1))
                continue
            }
            let again = state.withLockedValue { state -> Bool in
                if state.pokedAgain {
                    state.pokedAgain = false
                    return true
                }
                state.draining = false
                return false
            }
            if !again { return }
        }
    }

    /// Hands `events` to the streams of their course, under the lock that `subscribe` takes, so
    /// that a stream gets exactly its course's events after the id it was told. A stream whose
    /// buffer is full is ended.
    private func publish(_ events: [LocationEvent]) {
        guard let last = events.last else { return }
        let overflowing = state.withLockedValue { state -> [AsyncStream<Item>.Continuation] in
            state.lastID = last.id
            var overflowing: [UUID: AsyncStream<Item>.Continuation] = [:]
            for (id, (course, continuation)) in state.subscribers {
                for event in events where event.course == course || event.kind == .reload {
                    if case .dropped = continuation.yield(.event(event)) {
                        overflowing[id] = continuation
                        break
                    }
                }
            }
            for id in overflowing.keys { state.subscribers[id] = nil }
            return Array(overflowing.values)
        }
        for continuation in overflowing { continuation.finish() }
    }

    /// Ends every stream with `reason`: changes can no longer be heard for sure (the database's
    /// change channel was lost). Clients reconnect and resume from the log once it answers.
    func interrupt(reason: String) {
        let ended = state.withLockedValue { state -> [AsyncStream<Item>.Continuation] in
            defer { state.subscribers = [:] }
            return state.subscribers.values.map(\.continuation)
        }
        for continuation in ended {
            continuation.yield(.end(reason: reason))
            continuation.finish()
        }
        if !ended.isEmpty { logger.notice("Ended \(ended.count) live streams: \(reason)") }
    }

    fileprivate func remove(_ id: UUID) {
        let removed = state.withLockedValue { $0.subscribers.removeValue(forKey: id) }
        removed?.continuation.finish()
    }
}
