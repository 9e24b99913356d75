internal import Foundation
internal import OpenAPIRuntime

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
    /// cannot replay what was missed it says ``LiveUpdate/reload(reason:)``.
    ///
    /// - Parameter lastEventID: resume after this event (from ``LiveUpdate/ready(lastEventID:)``
    ///   of an earlier run), or nil to start from now.
    public func liveUpdates(after lastEventID: String? = nil) -> LiveUpdates {
        LiveUpdates(client: self, lastEventID: lastEventID)
    }
}

public struct LiveUpdates: AsyncSequence, Sendable {
    public typealias Element = LiveUpdate
    let client: OnTheMapClient
    let lastEventID: String?

    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, lastEventID: lastEventID)
    }

    public struct Iterator: AsyncIteratorProtocol {
        typealias Events = ServerSentEventsDeserializationSequence<ServerSentEventsLineDeserializationSequence<HTTPBody>>
        let client: OnTheMapClient
        /// The id of the last event delivered: where a new connection resumes.
        public private(set) var lastEventID: String?
        private var events: Events.AsyncIterator?
        /// The server's `retry`, 2 s unless it says otherwise.
        private var retryDelay: Duration = .seconds(2)
        private var failures = 0
        private var reconnectAtOnce = false
        private var connectedBefore = false

        init(client: OnTheMapClient, lastEventID: String?) {
            self.client = client
            self.lastEventID = lastEventID
        }

        public mutating func next() async throws(OnTheMapError) -> LiveUpdate? {
            while true {
                if Task.isCancelled { return nil }
                if events == nil {
                    do { try await connect() } catch where error.kind == .cancelled { return nil }
                    if events == nil { continue }
                }
                do {
                    guard let event = try await events?.next() else {
                        events = nil
                        continue
                    }
                    if let update = try read(event) { return update }
                } catch {
                    if Task.isCancelled { return nil }
                    if let error = error as? OnTheMapError { throw error }
                    // The connection broke: reconnect after the usual pause.
                    events = nil
                }
            }
        }

        private mutating func connect() async throws(OnTheMapError) {
            if reconnectAtOnce {
                reconnectAtOnce = false
            } else if failures > 0 || connectedBefore {
                try await pause(backoff)
            }
            do {
                let answer = try await client.streaming.v1Events(headers: .init(lastEventID: lastEventID))
                events = try answer.ok.body.textEventStream.asDecodedServerSentEvents().makeAsyncIterator()
                failures = 0
                connectedBefore = true
            } catch {
                let error = OnTheMapError(from: error)
                switch error.kind {
                case .network, .unavailable, .throttled, .serverError:
                    failures += 1
                    if let retryAfter = error.retryAfter { try await pause(retryAfter) }
                case .cancelled, .invalid, .notLoggedIn, .forbidden, .notFound, .unexpectedAnswer, .wrongCredentials,
                     .accountDisabled, .notOwner, .emailTaken, .duplicateRequest, .tooLarge, .sessionStorage:
                    throw error
                }
            }
        }

        /// The server's delay, doubled for each failed attempt in a row, at most 30 s.
        private var backoff: Duration {
            guard failures > 0 else { return retryDelay }
            return Swift.min(retryDelay * (1 << Swift.min(failures - 1, 4)), .seconds(30))
        }

        private func pause(_ duration: Duration) async throws(OnTheMapError) {
            do { try await Task.sleep(for: duration) } catch { throw OnTheMapError(kind: .cancelled, message: "cancelled") }
        }

        private mutating func read(_ event: ServerSentEvent) throws(OnTheMapError) -> LiveUpdate? {
            if let retry = event.retry { retryDelay = .milliseconds(retry) }
            if let id = event.id { lastEventID = id }
            let data = Data((event.data ?? "").utf8)
            switch event.event {
            case "ready":
                return .ready(lastEventID: lastEventID ?? "")
            case "created", "updated":
                let wire: Components.Schemas.StudentLocation
                do { wire = try JSONDecoder().decode(Components.Schemas.StudentLocation.self, from: data) } catch {
                    throw .unexpected("a \(event.event ?? "") event's data is not a location: \(error)")
                }
                let location = try StudentLocation(wire)
                return event.event == "created" ? .created(location) : .updated(location)
            case "deleted":
                struct Deleted: Decodable { var objectId: String }
                guard let deleted = try? JSONDecoder().decode(Deleted.self, from: data) else {
                    throw .unexpected("a deleted event without an objectId")
                }
                return .deleted(objectId: deleted.objectId)
            case "reload":
                struct Reload: Decodable { var reason: String? }
                return .reload(reason: (try? JSONDecoder().decode(Reload.self, from: data))?.reason ?? "the server asked for a reload")
            case "reconnect":
                // The server is restarting: open a new stream at once (to another instance, behind
                // a proxy), resuming from the last id.
                events = nil
                reconnectAtOnce = true
                return nil
            default:
                // heartbeat, and kinds a newer server may add.
                return nil
            }
        }
    }
}
