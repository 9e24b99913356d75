import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel
import OnTheMapStore

/// One event as the hub hands it to every stream of its course: the frame each stream writes is
/// made once, not once per stream (20,000 streams of a course would otherwise build 20,000 copies
/// of the same text, and with initials parse its JSON 20,000 times). A `ByteBuffer` written to many
/// connections is shared, not copied.
final class PublishedEvent: Sendable {
    let event: LocationEvent
    /// The frame for readers who see full names, made when the event is published.
    private let full: ByteBuffer
    /// The frame for readers who see initials, made when the first of them needs it.
    private let initials = NIOLockedValueBox<ByteBuffer?>(nil)

    init(_ event: LocationEvent) {
        self.event = event
        full = ByteBuffer(string: ServerSentEvent.frame(for: event, names: .full))
    }

    /// The event's frame for a reader who sees `names`.
    func frame(names: Course.NamesShown) -> ByteBuffer {
        guard names == .initials else { return full }
        return initials.withLockedValue { made in
            if let made { return made }
            let frame = ByteBuffer(string: ServerSentEvent.frame(for: event, names: .initials))
            made = frame
            return frame
        }
    }
}
