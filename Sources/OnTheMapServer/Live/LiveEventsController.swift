import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModel
import OnTheMapStore
import ServiceLifecycle

/// `GET /v1/StudentLocation/events`: the live map, as Server-Sent Events. Each created, updated or
/// deleted location is one event whose id is its place in the database's event log; a client that
/// reconnects with `Last-Event-ID` gets what it missed, or a `reload` event when that is too old or
/// too much. The stream opens with `ready` (the id the client is now at) and carries a `heartbeat`
/// event when idle, so that proxies and the client see it alive.
struct LiveEventsController: Sendable {
    let hub: LocationEventHub
    let log: any LocationEventStore
    let admission: LiveStreamAdmission
    let settings: LiveStreamSettings
    /// Asked again at each heartbeat of a course's stream (`LiveStreamAccess`).
    let rules: CourseAccess
    let directory: CourseDirectory

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.v1Events, stream)
    }

    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        let resumeAfter = try Self.lastEventID(of: request)
        let address = context.clientAddress
        // Refused here with a proper answer; the place itself is taken by the body, which is the
        // one part sure to end (a HEAD, or a client gone before the answer, never runs it).
        try admission.check(address)
        var headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"]
        // nginx passes the stream through as it comes rather than buffering it.
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        guard request.method != .head else { return Response(status: .ok, headers: headers) }
        // Resuming reads the log: with the database away, that is a 503 with Retry-After here,
        // before the stream's 200 has gone out (the client waits, then tries again).
        if resumeAfter != nil { _ = try await log.locationEventsPrunedThrough() }
        let clientGone = await ClientDisconnectWatch.clientGone(on: context.channel)
        let course = context.course
        // The default course at today's paths is anyone's to read, always.
        var access: LiveStreamAccess?
        if let mounted = context.facts.mountedCourse {
            let caller = try await context.caller()
            access = LiveStreamAccess(
                course: mounted, reader: caller?.account, names: try await NamesForReader.names(in: mounted, caller: caller), rules: rules,
                directory: directory)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody { [self, access] writer in
            try await run(course, access: access, resumingAfter: resumeAfter, address: address, clientGone: clientGone, writer: &writer)
        })
    }

    /// The stream of `course`'s life: a place, a subscription, the opening, then events and heartbeats until
    /// the client goes, the hub ends the stream (its buffer overflowed) or the server shuts down.
    /// A client that goes ends it at once, not at the next heartbeat that fails to send: its place
    /// is free again for the student's next tab.
    private func run(
        _ course: CourseID, access: LiveStreamAccess?, resumingAfter resumeAfter: Int64?, address: String, clientGone: EventLoopFuture<Void>?,
        writer: inout any ResponseBodyWriter
    ) async throws {
        guard let slot = try? admission.open(for: address) else { return try await writer.finish(nil) }
        defer { slot.close() }
        // Whose names the reader sees: fixed for the stream (a change of it ends the stream, `LiveStreamAccess`).
        let names = access?.names ?? .full
        // The database going away after the check in `stream`: past the 200, the stream can only say so.
        let databaseAway = ServerSentEvent.reconnect(reason: "database unavailable")
        let subscription: LocationEventHub.Subscription
        // Here and below, what may read the database runs in a child task (`inChildTask`).
        do {
            subscription = try await inChildTask { [hub] in try await hub.subscribe(to: course) }
        } catch StoreError.unavailable {
            try await writer.write(ByteBuffer(string: databaseAway))
            return try await writer.finish(nil)
        }
        defer { subscription.cancel() }
        clientGone?.whenComplete { _ in subscription.cancel() }
        let opening: (text: String, lastID: Int64)
        do {
            opening = try await inChildTask { [self] in
                try await self.opening(of: course, names: names, resumingAfter: resumeAfter, publishedUpTo: subscription.publishedUpTo)
            }
        } catch StoreError.unavailable {
            try await writer.write(ByteBuffer(string: databaseAway))
            return try await writer.finish(nil)
        }
        try await writer.write(ByteBuffer(string: opening.text))
        // Shutting down ends the subscription, and with it the relay, as a client that leaves
        // does: no task for it per stream (`cancelOnGracefulShutdown` would merge in the shutdown
        // with three).
        let answered = try await withGracefulShutdownHandler {
            try await relay(subscription, names: names, access: access, after: opening.lastID, to: &writer)
        } onGracefulShutdown: {
            subscription.cancel()
        }
        if answered { return }
        if Task.isShuttingDownGracefully { try await writer.write(ByteBuffer(string: ServerSentEvent.reconnect(reason: "server restarting"))) }
        try await writer.finish(nil)
    }

    /// Writes the subscription's items as they come (the events after `lastSent`, heartbeats) until
    /// it ends; true when the stream's answer was finished here, with its last frame.
    private func relay(
        _ subscription: LocationEventHub.Subscription, names: Course.NamesShown, access: LiveStreamAccess?, after lastSent: Int64,
        to writer: inout any ResponseBodyWriter
    ) async throws -> Bool {
        // One write and one finish: this frame stays in the stream's task for as long as the stream
        // is open (`inChildTask`), and every await in it adds to its size.
        var lastSent = lastSent
        for await item in subscription.items {
            let frame: ByteBuffer, last: Bool
            switch item {
            case .heartbeat:
                (frame, last) = try await Self.heartbeat(checking: access, lastSent: lastSent)
            case .event(let published) where published.event.id > lastSent:
                (frame, last) = (published.frame(names: names), false)
                lastSent = published.event.id
            case .event:
                continue
            case .end(let reason):
                (frame, last) = (ByteBuffer(string: ServerSentEvent.reconnect(reason: reason)), true)
            }
            try await writer.write(frame)
            if last {
                try await writer.finish(nil)
                return true
            }
        }
        return false
    }

    /// The heartbeat, or, for a reader who may no longer read the course, the stream's last frame.
    @inline(never)
    private static func heartbeat(checking access: LiveStreamAccess?, lastSent: Int64) async throws -> (frame: ByteBuffer, last: Bool) {
        guard let access else { return (heartbeatFrame, false) }
        switch try await inChildTask({ await access.ask() }) {
        case .allowed:
            return (heartbeatFrame, false)
        case .refused:
            return (ByteBuffer(string: ServerSentEvent.reconnect(reason: "access to this course changed")), true)
        case .courseDeleted:
            return (ByteBuffer(string: ServerSentEvent.frame(name: "reload", id: lastSent, data: #"{"reason":"this course was deleted"}"#)), true)
        }
    }

    /// Made once: every stream writes the same bytes.
    private static let heartbeatFrame = ByteBuffer(string: ServerSentEvent.heartbeat)

    /// What the stream starts with: the retry delay, the events the client missed (or `reload`),
    /// then `ready` with the id the client is now at.
    private func opening(
        of course: CourseID, names: Course.NamesShown, resumingAfter resume: Int64?, publishedUpTo: Int64
    ) async throws -> (text: String, lastID: Int64) {
        var text = "retry: \(settings.retryMilliseconds)\n\n"
        var lastID = publishedUpTo
        if let resume {
            switch try await missedEvents(of: course, after: resume) {
            case .events(let missed):
                for event in missed { text += ServerSentEvent.frame(for: event, names: names) }
                // Read from the log, which may be ahead of this instance's hub for a moment: the
                // live events skip what the opening has sent.
                lastID = max(publishedUpTo, resume, missed.last?.id ?? 0)
            case .reload(let reason):
                text += ServerSentEvent.frame(name: "reload", id: publishedUpTo, data: #"{"reason":\#(LocationJSON.quoted(reason))}"#)
            }
        }
        text += ServerSentEvent.frame(name: "ready", id: lastID, data: #"{"lastEventId":\#(lastID)}"#)
        return (text, lastID)
    }

    /// What a reconnecting client missed: every event committed after its id, or why it must reload.
    enum CatchUp {
        case events([LocationEvent])
        case reload(reason: String)
    }

    /// Every event of `course` committed after `resume`, or `reload` saying why not: the id is ahead of this
    /// log (not from it: the data was restored or replaced), the events were pruned, or there are
    /// more than the catch-up limit.
    private func missedEvents(of course: CourseID, after resume: Int64) async throws -> CatchUp {
        let notFromHere = CatchUp.reload(reason: "the event id is ahead of this stream's; the data was restored or replaced")
        guard let range = try await log.locationEventRange() else { return resume == 0 ? .events([]) : notFromHere }
        guard resume <= range.upperBound else { return notFromHere }
        guard try await resume >= log.locationEventsPrunedThrough() else { return .reload(reason: "the changes since then are too old to replay") }
        let events = try await log.locationEvents(after: resume, limit: settings.catchUpLimit + 1, in: course)
        guard events.count <= settings.catchUpLimit else {
            return .reload(reason: "more than \(settings.catchUpLimit) changes to replay")
        }
        return .events(events)
    }

    /// `Last-Event-ID` (what an EventSource sends when it reconnects), or `lastEventId` in the
    /// query for a client that opens a new EventSource after sleeping.
    static func lastEventID(of request: Request) throws -> Int64? {
        let text = request.headers[HTTPField.Name("Last-Event-ID")!]
            ?? QueryString.parse(request.uri.query).first { $0.name == "lastEventId" }?.value
        guard let text, !text.isEmpty else { return nil }
        guard let id = Int64(text), id >= 0 else {
            throw APIError.invalidQuery("Last-Event-ID must be an event id from this stream (a whole number).", parameter: "lastEventId")
        }
        return id
    }
}

/// The text of Server-Sent Events.
enum ServerSentEvent {
    /// An event, not a comment, so that a client can notice a stream gone silent (a dead network
    /// after sleep) and reconnect; with no id, it leaves the client's last event id alone.
    static let heartbeat = "event: heartbeat\ndata: {}\n\n"
    /// The last frame of a stream whose server is shutting down, or which can no longer hear every
    /// change: no id (the client keeps its own), and the client opens a new stream at once, which
    /// the proxy sends to another instance.
    static func reconnect(reason: String) -> String {
        "event: reconnect\ndata: {\"reason\":\(LocationJSON.quoted(reason))}\n\n"
    }

    static func frame(name: String, id: Int64, data: String) -> String {
        "id: \(id)\nevent: \(name)\ndata: \(data)\n\n"
    }

    /// A location event: the location as the list shows it (to a reader who sees `names`), or its
    /// objectId when deleted; for a new epoch (the data was replaced), `reload`.
    static func frame(for event: LocationEvent, names: Course.NamesShown = .full) -> String {
        if event.kind == .reload { return frame(name: "reload", id: event.id, data: replacedReason) }
        guard let payload = event.payload else {
            return frame(name: event.kind.rawValue, id: event.id, data: #"{"objectId":\#(LocationJSON.quoted(event.objectId))}"#)
        }
        return frame(name: event.kind.rawValue, id: event.id, data: names == .initials ? withInitials(payload) : payload)
    }

    /// A location's JSON with the names cut to initials and no `uniqueKey`, as
    /// `StudentLocation.withInitials` gives it; a payload that is not an object is left as it is.
    static func withInitials(_ payload: String) -> String {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] else { return payload }
        for key in ["firstName", "lastName"] { object[key] = Course.NamesShown.initial(of: object[key] as? String ?? "") }
        object["uniqueKey"] = ""
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return payload }
        return String(decoding: data, as: UTF8.self)
    }

    static let replacedReason = #"{"reason":"the data was replaced (a restore, a copy or an import)"}"#
}
