import Foundation
import NIOConcurrencyHelpers
import OnTheMapModel

/// A store whose location changes can be listened to.
public protocol LocationChangeAnnouncing: Sendable {
    var changes: LocationChangeFeed { get }
}

extension SQLStore: LocationChangeAnnouncing {}

/// The one place location changes are announced. Writers publish here after their transaction has
/// committed, in commit order; the list cache and the live map's hub listen (the hub then reads
/// the event log, which orders changes across every instance).
public final class LocationChangeFeed: Sendable {
    private struct State {
        var sequence: UInt64 = 0
        var listeners: [UUID: @Sendable (LocationChange) -> Void] = [:]
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Calls `listener` with every change published from now on, synchronously and in order, until
    /// the returned subscription is cancelled. A listener must be quick and must not publish.
    @discardableResult
    public func subscribe(_ listener: @escaping @Sendable (LocationChange) -> Void) -> Subscription {
        let id = UUID()
        state.withLockedValue { $0.listeners[id] = listener }
        return Subscription { [weak self] in _ = self?.state.withLockedValue { $0.listeners.removeValue(forKey: id) } }
    }

    /// Numbers and announces changes that have just committed. Listeners run under the feed's lock,
    /// so two publishers can never deliver out of order.
    public func publish(_ kinds: [LocationChange.Kind]) {
        guard !kinds.isEmpty else { return }
        state.withLockedValue { state in
            for kind in kinds {
                state.sequence += 1
                let change = LocationChange(sequence: state.sequence, kind: kind)
                for listener in state.listeners.values { listener(change) }
            }
        }
    }

    /// Stops a listener when cancelled.
    public struct Subscription: Sendable {
        let cancelAction: @Sendable () -> Void
        public func cancel() { cancelAction() }
    }
}
