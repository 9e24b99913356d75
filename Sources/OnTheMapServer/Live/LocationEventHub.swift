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
///
/// The hub also keeps every stream's heartbeat, from one timer (`beat`): a timer task per stream
/// would cost each of 20,000 idle streams a task of its own.
final class LocationEventHub: Sendable {
    /// What a stream receives.
    enum Item: Sendable {
        case event(PublishedEvent)
        /// Every `LiveStreamSettings.heartbeat` of the stream's life.
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
        fileprivate let hub: LocationEventHub

        func cancel() { hub.remove(id) }
    }

    private struct Subscriber {
        let course: CourseID
        let continuation: AsyncStream<Item>.Continuation
        /// Which tick of the heartbeat timer's round beats this stream (`beat`).
        let beatSlot: Int
    }

    private struct State {
        var lastID: Int64?
        var draining = false
        var pokedAgain = false
        /// When the last read of the log began (`gather`).
        var lastRead: ContinuousClock.Instant?
        var subscribers: [UUID: Subscriber] = [:]
        /// Ticks of the heartbeat timer so far, and whether it runs (only while there are streams).
        var ticks = 0
        var beating = false
    }

    private let store: any LocationEventStore
    private let logger: Logger
    /// Events a stream may have waiting before it is ended (its client reconnects and catches up
    /// from the log, rather than the instance holding an unbounded queue for a slow reader).
    private let bufferPerStream: Int
    /// How often each stream gets a heartbeat.
    private let heartbeat: Duration
    /// The heartbeat timer ticks this many times per heartbeat, beating the streams of one slot
    /// each time: the heartbeats of streams opened at different moments stay spread out, rather
    /// than every stream beating (and asking whether its reader may still read) at once.
    static let beatSlots = 10
    private let pageSize = 500
    private static let firstHeldBackWait = Duration.milliseconds(5)
    /// Reads of the log begin at least this far apart: the commits announced in between are read
    /// together. Under a stream of writes the log is then read 200 times a second at most, not
    /// once for every commit or two (a read costs the database about what a write does), and a
    /// commit after a quiet spell is still read at once.
    static let gather = Duration.milliseconds(5)
    /// How long events may stay held back before the log says why the live map stands still.
    private static let heldBackWarning = Duration.seconds(10)
    private let state = NIOLockedValueBox(State())

    init(store: any LocationEventStore, logger: Logger, heartbeat: Duration = .seconds(20), bufferPerStream: Int = 1024) {
        self.store = store
        self.logger = logger
        self.heartbeat = heartbeat
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
        let (publishedUpTo, startBeating) = state.withLockedValue { state in
            state.subscribers[id] = Subscriber(course: course, continuation: continuation, beatSlot: state.ticks % Self.beatSlots)
            defer { state.beating = true }
            return (state.lastID ?? 0, !state.beating)
        }
        if startBeating { Task { await beat() } }
        return Subscription(publishedUpTo: publishedUpTo, items: items, id: id, hub: self)
    }

    /// Whether the heartbeat timer runs, for tests.
    var isBeating: Bool { state.withLockedValue { $0.beating } }

    /// The heartbeat timer, while there are streams: each tick beats the streams of one slot, so a
    /// stream beats `beatSlots` ticks after the tick before it subscribed, and then every
    /// `heartbeat` (within a tick of it: never later).
    private func beat() async {
        let tick = heartbeat / Self.beatSlots
        while true {
            try? await Task.sleep(for: tick)
            let due = state.withLockedValue { state -> [AsyncStream<Item>.Continuation]? in
                state.ticks += 1
                guard !state.subscribers.isEmpty else {
                    state.beating = false
                    return nil
                }
                let slot = state.ticks % Self.beatSlots
                return state.subscribers.values.compactMap { $0.beatSlot == slot ? $0.continuation : nil }
            }
            guard let due else { return }
            for continuation in due { continuation.yield(.heartbeat) }
        }
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
                if let sinceLastRead = state.withLockedValue({ $0.lastRead?.duration(to: .now) }), sinceLastRead < Self.gather {
                    try? await Task.sleep(for: Self.gather - sinceLastRead)
                }
                let after = state.withLockedValue { state in
                    state.lastRead = .now
                    return state.lastID ?? 0
                }
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
        let published = events.map(PublishedEvent.init)
        let overflowing = state.withLockedValue { state -> [AsyncStream<Item>.Continuation] in
            state.lastID = last.id
            var overflowing: [UUID: AsyncStream<Item>.Continuation] = [:]
            for (id, subscriber) in state.subscribers {
                for item in published where item.event.course == subscriber.course || item.event.kind == .reload {
                    if case .dropped = subscriber.continuation.yield(.event(item)) {
                        overflowing[id] = subscriber.continuation
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
