import Foundation
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// `GET /v1/StudentLocation/events` streams every created, updated and deleted location
/// as Server-Sent Events with ids from the database's event log; a client that reconnects with
/// `Last-Event-ID` gets what it missed, or `reload`.
@Suite struct LiveEventsTests {
    static func live(_ configure: @escaping (inout AppConfiguration) -> Void = { _ in }, _ body: @Sendable (TestServer, Int) async throws -> Void) async throws {
        try await TestServer.run(configure: configure, live: true) { server in
            try await body(server, try #require(server.client.port))
        }
    }

    @Test func everyChangeArrivesInOrderWithTheLocationAsTheListShowsIt() async throws {
        // No heartbeat in between: on a loaded machine this test can outlast the 20 s default.
        try await Self.live({ $0.live.heartbeat = .seconds(3600) }) { server, port in
            let stream = try await EventStreamClient(port: port)
            #expect(stream.status == 200)
            #expect(stream.headers["Content-Type"].first == "text/event-stream; charset=utf-8")
            #expect(stream.headers["Cache-Control"].first == "no-store")
            let ready = try #require(try await stream.next())
            #expect(ready.name == "ready")
            #expect(ready.id != nil)

            let student = try await server.signUp()
            let id = try await server.postLocation(as: student, mapString: "Lima, Peru", latitude: -12.05, longitude: -77.04)
            let created = try #require(try await stream.next())
            #expect(created.name == "created")
            let listed = try #require(try await server.send(.get, "/v1/StudentLocation").object()["results"] as? [[String: Any]]).first
            #expect(NSDictionary(dictionary: try created.object()) == NSDictionary(dictionary: try #require(listed)))

            let moved = try await server.send(.put, "/v1/StudentLocation/\(id)", body: #"{"mapString": "Cusco, Peru"}"#,
                                              headers: student.cookieHeader + [.xXSRFToken: student.cookies["XSRF-TOKEN"] ?? ""])
            #expect(moved.status == .ok, "\(moved.text)")
            let updated = try #require(try await stream.next())
            #expect(updated.name == "updated")
            #expect(try updated.object()["mapString"] as? String == "Cusco, Peru")

            #expect(try await server.store.deleteLocation(objectId: id, in: .default))
            let deleted = try #require(try await stream.next())
            #expect(deleted.name == "deleted")
            #expect(try deleted.object() as NSDictionary == ["objectId": id])
            let ids = [ready, created, updated, deleted].compactMap { $0.id.flatMap { Int64($0) } }
            #expect(ids.count == 4)
            #expect(ids == ids.sorted() && Set(ids.dropFirst()).count == 3)
        }
    }

    @Test func aClientThatReconnectsGetsWhatItMissed() async throws {
        try await Self.live({ $0.live.heartbeat = .seconds(3600) }) { server, port in
            let first = try await EventStreamClient(port: port)
            let ready = try #require(try await first.next())
            let student = try await server.signUp()
            let a = try await server.postLocation(as: student, mapString: "First")
            let seen = try #require(try await first.next()).id!
            // Away (asleep, offline) while three more changes happen.
            let others = [try await server.signUp(), try await server.signUp()]
            let b = try await server.postLocation(as: others[0], mapString: "Second")
            let c = try await server.postLocation(as: others[1], mapString: "Third")
            #expect(try await server.store.deleteLocation(objectId: a, in: .default))
            try await server.store.waitUntilEventsAreFinal()
            let again = try await EventStreamClient(port: port, headers: [("Last-Event-ID", seen)])
            let missed = try await again.events(through: "ready")
            try #require(missed.map(\.name) == ["created", "created", "deleted", "ready"])
            #expect(try missed[0].object()["objectId"] as? String == b)
            #expect(try missed[1].object()["objectId"] as? String == c)
            #expect(try missed[2].object()["objectId"] as? String == a)
            #expect(missed[3].id == missed[2].id)
            // The same through the query, as a new EventSource opened after sleep would ask.
            let viaQuery = try await EventStreamClient(port: port, path: "/v1/StudentLocation/events?lastEventId=\(ready.id!)")
            // `a` was created, then deleted: its newest event alone is replayed.
            #expect(try await viaQuery.events(through: "ready").map(\.name) == ["created", "created", "deleted", "ready"])
        }
    }

    /// A reload says why, and an id ahead of the stream is not "too old".
    @Test func eachReloadSaysWhy() async throws {
        try await Self.live({ $0.live.catchUpLimit = 2 }) { server, port in
            // Four students: a pin's own changes replace each other in the log.
            for place in ["A", "B", "C", "D"] { try await server.postLocation(as: try await server.signUp(), mapString: place) }
            try await server.store.waitUntilEventsAreFinal()
            func reason(after id: String) async throws -> String? {
                let stream = try await EventStreamClient(port: port, headers: [("Last-Event-ID", id)])
                let reload = try await stream.events(through: "ready").first { $0.name == "reload" }
                return try reload?.object()["reason"] as? String
            }
            #expect(try await reason(after: "0") == "more than 2 changes to replay")
            // Ids on PostgreSQL are large (ordered by transaction): ahead means past the newest.
            let ready = try await EventStreamClient(port: port).events(through: "ready").last
            let readyID = try #require(ready?.id)
            let ahead = try #require(Int64(readyID)) + 1_000_000_000
            #expect(try await reason(after: String(ahead)) == "the event id is ahead of this stream's; the data was restored or replaced")
            _ = try await server.store.deleteLocationEvents(before: WallClock.system.nowMillis() + 60_000)
            #expect(try await reason(after: "1") == "the changes since then are too old to replay")
        }
    }

    @Test func aClientTooFarBehindIsToldToReload() async throws {
        try await Self.live({ $0.live.catchUpLimit = 2 }) { server, port in
            // Four students: a pin's own changes replace each other in the log.
            for place in ["A", "B", "C", "D"] { try await server.postLocation(as: try await server.signUp(), mapString: place) }
            try await server.store.waitUntilEventsAreFinal()
            let tooMany = try await EventStreamClient(port: port, headers: [("Last-Event-ID", "0")])
            #expect(try await tooMany.events(through: "ready").map(\.name) == ["reload", "ready"])
            let fromElsewhere = try await EventStreamClient(port: port, headers: [("Last-Event-ID", "999999")])
            #expect(try await fromElsewhere.events(through: "ready").map(\.name) == ["reload", "ready"])
            _ = try await server.store.deleteLocationEvents(before: WallClock.system.nowMillis() + 60_000)
            let pruned = try await EventStreamClient(port: port, headers: [("Last-Event-ID", "1")])
            #expect(try await pruned.events(through: "ready").map(\.name) == ["reload", "ready"])
            let bad = try await server.send(.get, "/v1/StudentLocation/events", headers: [.init("Last-Event-ID")!: "yesterday"])
            #expect(bad.status == .badRequest)
            #expect(try bad.object()["status"] as? Int == 400)
        }
    }

    /// An import (like a restore or a copy with --replace) rewrites the data
    /// under the log; every stream reloads, live or resuming from any id before it.
    @Test func anImportMakesEveryStreamReload() async throws {
        try await Self.live({ $0.live.heartbeat = .seconds(3600) }) { server, port in
            let live = try await EventStreamClient(port: port)
            let ready = try #require(try await live.next())
            let student = try await server.signUp()
            _ = try await server.postLocation(as: student, mapString: "Before the import")
            let newest = try #require(try await live.next()).id!
            let imported = StudentLocation(
                objectId: "imported01", uniqueKey: "u1", firstName: "Im", lastName: "Ported", mapString: "Imported", mediaURL: "https://example.com",
                latitude: 1, longitude: 2, createdAt: 1_500_000_000_000, updatedAt: 1_500_000_000_000)
            _ = try await server.store.importLocations([imported])
            let reload = try #require(try await live.next())
            #expect(reload.name == "reload")
            #expect(Int64(reload.id!)! > Int64(newest)!)
            try await server.store.waitUntilEventsAreFinal()
            for before in [ready.id!, newest] {
                let resuming = try await EventStreamClient(port: port, headers: [("Last-Event-ID", before)])
                #expect(try await resuming.events(through: "ready").map(\.name) == ["reload", "ready"], "resuming after \(before)")
            }
            let afterReload = try await EventStreamClient(port: port, headers: [("Last-Event-ID", reload.id!)])
            #expect(try await afterReload.events(through: "ready").map(\.name) == ["ready"])
        }
    }

    @Test func idleStreamsCarryHeartbeats() async throws {
        try await Self.live({ $0.live.heartbeat = .milliseconds(100) }) { server, port in
            let stream = try await EventStreamClient(port: port)
            #expect(try await stream.next()?.name == "ready")
            let beats = [try await stream.next(), try await stream.next()]
            #expect(beats.map { $0?.name } == ["heartbeat", "heartbeat"])
            #expect(beats.allSatisfy { $0?.id == nil }, "a heartbeat leaves the client's last event id alone")
        }
    }

    @Test func streamsAreCappedPerAddressAndInAllAndFreedWhenClosed() async throws {
        try await Self.live({ $0.live.maxStreamsPerAddress = 2; $0.live.maxStreams = 3; $0.live.heartbeat = .milliseconds(50) }) { server, port in
            var streams = [
                try await EventStreamClient(port: port, headers: [("X-Forwarded-For", "10.0.0.1")]),
                try await EventStreamClient(port: port, headers: [("X-Forwarded-For", "10.0.0.1")]),
            ]
            for stream in streams { _ = try await stream.next() }
            let third = try await server.send(.get, "/v1/StudentLocation/events", headers: [.xForwardedFor: "10.0.0.1"])
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[.retryAfter] != nil)
            streams.append(try await EventStreamClient(port: port, headers: [("X-Forwarded-For", "10.0.0.2")]))
            _ = try await streams[2].next()
            let full = try await server.send(.get, "/v1/StudentLocation/events", headers: [.xForwardedFor: "10.0.0.3"])
            #expect(full.status == .serviceUnavailable)
            // HEAD answers the head and takes no place.
            #expect(try await server.send(.head, "/v1/StudentLocation/events", headers: [.xForwardedFor: "10.0.0.4"]).status == .serviceUnavailable)
            streams.removeAll()
            // The server notices the clients gone as they close.
            var status = 0
            for _ in 0..<100 where status != 200 {
                try await Task.sleep(for: .milliseconds(50))
                let probe = try await EventStreamClient(port: port, headers: [("X-Forwarded-For", "10.0.0.1")])
                status = probe.status
            }
            #expect(status == 200)
        }
    }

    /// A closed tab frees its place at once, not at the next heartbeat the server fails to send.
    @Test func aStreamEndsWhenItsClientLeaves() async throws {
        try await Self.live({ $0.live.maxStreamsPerAddress = 1; $0.live.heartbeat = .seconds(3600) }) { server, port in
            var first: EventStreamClient? = try await EventStreamClient(port: port, headers: [("X-Forwarded-For", "10.0.0.1")])
            #expect(try await first?.next()?.name == "ready")
            let refused = try await server.send(.get, "/v1/StudentLocation/events", headers: [.xForwardedFor: "10.0.0.1"])
            #expect(refused.status == .tooManyRequests)
            first = nil
            var status = 0
            for _ in 0..<100 where status != 200 {
                try await Task.sleep(for: .milliseconds(50))
                status = try await EventStreamClient(port: port, headers: [("X-Forwarded-For", "10.0.0.1")]).status
            }
            #expect(status == 200, "the place was still held with no heartbeat due for an hour")
        }
    }
}
