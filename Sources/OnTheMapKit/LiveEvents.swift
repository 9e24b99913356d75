internal import Foundation
internal import OpenAPIRuntime

/// What ``OnTheMapClient/liveEvents(after:)`` yields: a change to the map, or a change in the
/// connection that carries them.
public enum LiveEvent: Sendable, Hashable {
    /// A stream is open. What was missed while away follows, then ``LiveUpdate/ready(lastEventID:)``.
    case connected
    /// The connection was lost, or could not be made (no network, the server restarting or down):
    /// the next attempt is made after `after`, resuming from the last change delivered.
    case reconnecting(after: Duration)
    case update(LiveUpdate)
}

extension OnTheMapClient {
    /// ``liveUpdates(after:)`` with the connection's state between the changes: for an app that
    /// shows when the map is live and when it is reconnecting.
    ///
    /// ```swift
    /// for try await event in client.liveEvents() {
    ///     switch event {
    ///     case .connected: banner = nil
    ///     case .reconnecting(let delay): banner = "Reconnecting in \(delay)…"
    ///     case .update(let update): apply(update)
    ///     }
    /// }
    /// ```
    public func liveEvents(after lastEventID: String? = nil) -> LiveEvents {
        LiveEvents(client: self, lastEventID: lastEventID)
    }
}

public struct LiveEvents: AsyncSequence, Sendable {
    public typealias Element = LiveEvent
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
        /// The pause before the next connection: none before the first.
        private var pauseBeforeConnecting: Duration = .zero

        init(client: OnTheMapClient, lastEventID: String?) {
            self.client = client
            self.lastEventID = lastEventID
        }

        public mutating func next() async throws(OnTheMapError) -> LiveEvent? {
            while true {
                if Task.isCancelled { return nil }
                if events == nil {
                    do { return try await connect() } catch where error.kind == .cancelled { return nil }
                }
                do {
                    guard let event = try await events?.next() else { return reconnecting(after: backoff) }
                    if let update = try read(event) { return update }
                } catch {
                    if Task.isCancelled { return nil }
                    if let error = error as? OnTheMapError { throw error }
                    // The connection broke: reconnect after the usual pause.
                    return reconnecting(after: backoff)
                }
            }
        }

        /// Opens a stream after the pause due, or says when the next attempt is.
        private mutating func connect() async throws(OnTheMapError) -> LiveEvent {
            if pauseBeforeConnecting > .zero { try await pause(pauseBeforeConnecting) }
            do {
                let answer = try await client.streaming.v1Events(headers: .init(lastEventID: lastEventID))
                events = try answer.ok.body.textEventStream.asDecodedServerSentEvents().makeAsyncIterator()
                failures = 0
                return .connected
            } catch {
                let error = OnTheMapError(from: error)
                switch error.kind {
                case .network, .unavailable, .throttled, .serverError:
                    failures += 1
                    return reconnecting(after: (error.retryAfter ?? .zero) + backoff)
                case .cancelled, .invalid, .notLoggedIn, .forbidden, .notFound, .unexpectedAnswer, .wrongCredentials,
                     .accountDisabled, .notOwner, .emailTaken, .duplicateRequest, .tooLarge, .sessionStorage,
                     .courseNotFound, .notACourseMember, .courseArchived, .inviteNotValid, .courseSlugTaken:
                    throw error
                }
            }
        }

        private mutating func reconnecting(after delay: Duration) -> LiveEvent {
            events = nil
            pauseBeforeConnecting = delay
            return .reconnecting(after: delay)
        }

        /// The server's delay, doubled for each failed attempt in a row, at most 30 s.
        private var backoff: Duration {
            guard failures > 0 else { return retryDelay }
            return Swift.min(retryDelay * (1 << Swift.min(failures - 1, 4)), .seconds(30))
        }

        private func pause(_ duration: Duration) async throws(OnTheMapError) {
            do { try await Task.sleep(for: duration) } catch { throw OnTheMapError(kind: .cancelled, message: "cancelled") }
        }

        private mutating func read(_ event: ServerSentEvent) throws(OnTheMapError) -> LiveEvent? {
            if let retry = event.retry { retryDelay = .milliseconds(retry) }
            if let id = event.id { lastEventID = id }
            let data = Data((event.data ?? "").utf8)
            switch event.event {
            case "ready":
                return .update(.ready(lastEventID: lastEventID ?? ""))
            case "created", "updated":
                let wire: Components.Schemas.StudentLocation
                do { wire = try JSONDecoder().decode(Components.Schemas.StudentLocation.self, from: data) } catch {
                    throw .unexpected("a \(event.event ?? "") event's data is not a location: \(error)")
                }
                let location = try StudentLocation(wire)
                return .update(event.event == "created" ? .created(location) : .updated(location))
            case "deleted":
                struct Deleted: Decodable { var objectId: String }
                guard let deleted = try? JSONDecoder().decode(Deleted.self, from: data) else {
                    throw .unexpected("a deleted event without an objectId")
                }
                return .update(.deleted(objectId: deleted.objectId))
            case "reload":
                struct Reload: Decodable { var reason: String? }
                return .update(.reload(reason: (try? JSONDecoder().decode(Reload.self, from: data))?.reason ?? "the server asked for a reload"))
            case "reconnect":
                // The server is restarting: open a new stream at once (to another instance, behind
                // a proxy), resuming from the last id.
                return reconnecting(after: .zero)
            default:
                // heartbeat, and kinds a newer server may add.
                return nil
            }
        }
    }
}
