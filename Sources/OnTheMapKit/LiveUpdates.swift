/// One change to the map, as the server's event stream tells it.
public enum LiveUpdate: Sendable, Hashable {
    /// The stream is open and caught up: every change up to `lastEventID` has been delivered.
    /// Comes first, and again after every reconnection.
    case ready(lastEventID: String)
    case created(StudentLocation)
    /// A pin was changed, or overwritten by its owner posting again.
    case updated(StudentLocation)
    case deleted(objectId: String)
    /// The changes missed cannot be replayed (too many, too old, or the data was restored): load
    /// the list again. `reason` says which.
    case reload(reason: String)
}

extension OnTheMapClient {
    /// Every change to the map as it happens, for as long as the task iterating runs. The sequence
    /// reconnects by itself when the connection drops or the server restarts, resuming after the
    /// last event it delivered (`Last-Event-ID`), so nothing is missed or repeated; when the server
    /// cannot replay what was missed it says ``LiveUpdate/reload(reason:)``. To also see when it is
    /// reconnecting, iterate ``liveEvents(after:)`` instead.
    ///
    /// - Parameter lastEventID: resume after this event (from ``LiveUpdate/ready(lastEventID:)``
    ///   of an earlier run), or nil to start from now.
    public func liveUpdates(after lastEventID: String? = nil) -> LiveUpdates {
        LiveUpdates(client: self, lastEventID: lastEventID)
    }
}

/// The changes of ``LiveEvents``, without the connection's state.
public struct LiveUpdates: AsyncSequence, Sendable {
    public typealias Element = LiveUpdate
    let client: OnTheMapClient
    let lastEventID: String?

    public func makeAsyncIterator() -> Iterator {
        Iterator(events: LiveEvents(client: client, lastEventID: lastEventID).makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        private var events: LiveEvents.Iterator
        /// The id of the last event delivered: where a new connection resumes.
        public var lastEventID: String? { events.lastEventID }

        init(events: LiveEvents.Iterator) {
            self.events = events
        }

        public mutating func next() async throws(OnTheMapError) -> LiveUpdate? {
            while let event = try await events.next() {
                if case .update(let update) = event { return update }
            }
            return nil
        }
    }
}
