import AsyncHTTPClient
import Foundation
import HTTPTypes
import Logging
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// What lets one instance hold the streams of a large course (scripts/bench/bench-streams.sh):
/// streams stop short of the connections the server may hold, so that a write still gets in; the
/// heartbeats come from one timer of the hub, which runs only while there are streams; and each
/// event's frame is made once for all its streams.
@Suite struct LiveStreamScaleTests {
    @Test func streamsLeaveATenthOfTheConnectionsForEverythingElse() throws {
        var settings = LiveStreamSettings()
        settings.maxStreams = 20_000
        #expect(LiveStreamAdmission(settings: settings).maxStreams == 20_000)
        #expect(LiveStreamAdmission(settings: settings, connections: 65_408).maxStreams == 20_000)
        #expect(LiveStreamAdmission(settings: settings, connections: 19_872).maxStreams == 17_885)
        #expect(LiveStreamAdmission(settings: settings, connections: 3).maxStreams == 2)

        let admission = LiveStreamAdmission(settings: settings, connections: 20)
        let slots = try (0..<18).map { try admission.open(for: "10.0.0.\($0)") }
        #expect(throws: APIError.overloaded(retryAfter: 5, message: "Too many live streams on this server; try again shortly.")) {
            try admission.check("10.0.1.1")
        }
        slots[0].close()
        #expect(throws: Never.self) { try admission.check("10.0.1.1") }
    }

    /// With every place a stream may take taken, the next stream is refused with 503 and
    /// `Retry-After`, and a write is still answered: the streams could otherwise fill every
    /// connection the server may hold, and the write would find none. (Eight connections: the test's
    /// HTTP client opens no more to one server, so a ninth stream would wait rather than fail.)
    @Test func pastTheCapNewStreamsAreRefusedAndWritesStillAnswered() async throws {
        try await TestServer.run(configure: { $0.edge.maxConnections = 8; $0.live.heartbeat = .seconds(3600) }, live: true) { server in
            let port = try #require(server.client.port)
            let student = try await server.signUp()
            var streams: [EventStreamClient] = []
            var refused: EventStreamClient?
            while refused == nil, streams.count < 8 {
                let stream = try await EventStreamClient(port: port, headers: [("X-Forwarded-For", "10.0.0.\(streams.count)")])
                if stream.status == 200 {
                    #expect(try await stream.next()?.name == "ready")
                    streams.append(stream)
                } else {
                    refused = stream
                }
            }
            #expect(streams.count == 7, "all but one of the 8 connections")
            #expect(refused?.status == 503)
            #expect(refused?.headers["Retry-After"].first == "5", "refused by the streams' cap, not for want of a connection")
            // Through the streams' client: the test client's own connection, idle longest, was closed
            // to make room for the refused stream's.
            var post = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/StudentLocation")
            post.method = .POST
            post.headers.add(name: "Authorization", value: "Bearer \(student.token)")
            post.headers.add(name: "Content-Type", value: "application/json")
            post.body = .bytes(ByteBuffer(string: #"{"mapString": "Beside the streams", "mediaURL": "https://example.com", "latitude": 1, "longitude": 2}"#))
            let answer = try await HTTPClient.shared.execute(post, timeout: .seconds(30))
            #expect(answer.status == .ok, "a write answered as usual")
            let created = try await answer.body.collect(upTo: 1 << 16)
            let posted = try #require(try JSONSerialization.jsonObject(with: Data(created.readableBytesView)) as? [String: Any])["objectId"] as? String
            for stream in streams {
                let event = try #require(try await stream.next())
                #expect(event.name == "created")
                #expect(try event.object()["objectId"] as? String == posted)
            }
        }
    }

    @Test func theHubsHeartbeatTimerRunsOnlyWhileThereAreStreams() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let hub = LocationEventHub(store: database.store, logger: .quiet, heartbeat: .milliseconds(50))
            #expect(!hub.isBeating)
            let streams = [try await hub.subscribe(to: .default), try await hub.subscribe(to: .default)]
            #expect(hub.isBeating)
            // Ends the streams should a heartbeat never come: the test then fails instead of waiting.
            let watchdog = Task { try await Task.sleep(for: .seconds(20)); for stream in streams { stream.cancel() } }
            for stream in streams {
                var items = stream.items.makeAsyncIterator()
                guard case .heartbeat? = await items.next() else { Issue.record("no heartbeat"); continue }
            }
            watchdog.cancel()
            for stream in streams { stream.cancel() }
            // The timer notices at its next tick.
            for _ in 0..<400 where hub.isBeating { try await Task.sleep(for: .milliseconds(5)) }
            #expect(!hub.isBeating)
            try await database.close()
        }
    }

    /// Reads of the log begin at least `gather` apart: a stream of writes costs the database a
    /// read per gather, not a read per commit; a commit after a quiet spell is read at once.
    @Test func commitsInQuickSuccessionAreReadTogether() async throws {
        let log = CountedEventLog()
        let hub = LocationEventHub(store: log, logger: .quiet, heartbeat: .seconds(3600))
        let stream = try await hub.subscribe(to: .default)
        var items = stream.items.makeAsyncIterator()
        let started = ContinuousClock.now
        for id in 1...60 {
            log.add(id: Int64(id))
            hub.poke()
            try await Task.sleep(for: .milliseconds(1))
        }
        var seen: [Int64] = []
        while seen.count < 60, case .event(let published)? = await items.next() { seen.append(published.event.id) }
        let elapsed = started.duration(to: .now)
        #expect(seen == Array(1...60), "every commit reached the stream, in order")
        // A read per commit would be 60 (each read is quicker than the commits' spacing).
        let bound = Int(elapsed / LocationEventHub.gather) + 2
        #expect(log.reads <= bound, "\(log.reads) reads in \(elapsed)")

        // After a quiet spell, a commit is read at once.
        try await Task.sleep(for: .milliseconds(50))
        log.add(id: 61)
        let poked = ContinuousClock.now
        hub.poke()
        if case .event(let published)? = await items.next() { #expect(published.event.id == 61) }
        #expect(poked.duration(to: .now) < .seconds(1))
        stream.cancel()
    }

    @Test func anEventsFrameIsMadeOnceForEveryStream() {
        let payload = #"{"firstName":"Ada","lastName":"Lovelace","mapString":"London","objectId":"a1","uniqueKey":"k1"}"#
        let event = LocationEvent(id: 7, kind: .created, objectId: "a1", payload: payload, at: 0)
        let published = PublishedEvent(event)
        for names in Course.NamesShown.allCases {
            let frame = published.frame(names: names)
            #expect(String(buffer: frame) == ServerSentEvent.frame(for: event, names: names))
            let again = published.frame(names: names)
            let shared = frame.withUnsafeReadableBytes { first in again.withUnsafeReadableBytes { $0.baseAddress == first.baseAddress } }
            #expect(shared, "the same bytes for every stream of \(names)")
        }
        #expect(String(buffer: published.frame(names: .initials)).contains(#""firstName":"A.""#))
    }
}

/// An event log in memory whose reads are counted.
private final class CountedEventLog: LocationEventStore {
    private let state = NIOLockedValueBox<(events: [LocationEvent], reads: Int)>(([], 0))

    func add(id: Int64) {
        state.withLockedValue { $0.events.append(LocationEvent(id: id, kind: .created, objectId: "p\(id)", payload: "{}", at: 0)) }
    }

    var reads: Int { state.withLockedValue { $0.reads } }

    func locationEventBatch(after id: Int64, limit: Int, in course: CourseID?) async throws -> LocationEventBatch {
        let events = state.withLockedValue { state in
            state.reads += 1
            return Array(state.events.filter { $0.id > id }.prefix(limit))
        }
        return LocationEventBatch(events: events, heldBack: false)
    }

    func locationEventRange() async throws -> ClosedRange<Int64>? { nil }
    func locationEventsPrunedThrough() async throws -> Int64 { 0 }
    func deleteLocationEvents(before cutoff: Int64) async throws -> Int { 0 }
}
