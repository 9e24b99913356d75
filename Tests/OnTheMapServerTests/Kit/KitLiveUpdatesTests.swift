import Foundation
@testable import OnTheMapKit
import OpenAPIURLSession
@testable import OnTheMapServer
import Testing

/// `liveUpdates()` delivers another client's writes as they commit, and carries on
/// across a server restart without missing or repeating a change.
extension KitSuite {
@Suite struct KitLiveUpdatesTests {
    @Test(.timeLimit(.minutes(2)), arguments: KitTransport.allCases)
    func anotherClientsWritesArrive(transport: KitTransport) async throws {
        try await KitSuite.live({ $0.live.heartbeat = .seconds(3600) }) { _, port in
            let watcher = transport.client(port: port)
            var updates = watcher.liveUpdates().makeAsyncIterator()
            guard case .ready(let opened)? = try await updates.next() else { throw TestFailure("the stream did not open with ready") }
            #expect(!opened.isEmpty)

            let writer = transport.client(port: port)
            try await writer.signUp(email: freshEmail(), password: "correct horse battery", firstName: "Grace", lastName: "Hopper")
            let posted = try await writer.post(NewLocation(mapString: "Arlington, VA", mediaURL: "https://example.com", latitude: 38.88, longitude: -77.1))
            guard case .created(let created)? = try await updates.next() else { throw TestFailure("no created event") }
            #expect(created.objectId == posted.objectId && created.firstName == "Grace" && created.createdAt == posted.createdAt)

            try await writer.overwrite(posted.objectId, with: NewLocation(mapString: "New York", mediaURL: "https://example.com", latitude: 40.7, longitude: -74))
            guard case .updated(let updated)? = try await updates.next() else { throw TestFailure("no updated event") }
            let read = try await writer.location(id: posted.objectId)
            #expect(updated.mapString == "New York" && updated == read)

            try await writer.delete(posted.objectId)
            #expect(try await updates.next() == .deleted(objectId: posted.objectId))
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: KitTransport.allCases)
    func theSequenceResumesAfterTheServerRestarts(transport: KitTransport) async throws {
        try await RestartableServer.run { server in
            try await server.start()
            let watcher = transport.client(port: server.port)
            var updates = watcher.liveUpdates().makeAsyncIterator()
            guard case .ready? = try await updates.next() else { throw TestFailure("the stream did not open with ready") }
            let writer = transport.client(port: server.port)
            try await writer.signUp(email: freshEmail(), password: "correct horse battery", firstName: "Ada", lastName: "Lovelace")
            let first = try await writer.post(NewLocation(mapString: "London", mediaURL: "https://example.com", latitude: 51.5, longitude: -0.12))
            guard case .created(let created)? = try await updates.next() else { throw TestFailure("no created event") }
            #expect(created.objectId == first.objectId)

            // The server goes; while it is away the pin is deleted behind its back (as the CLI
            // would), and it comes back on the same port.
            try await server.stop()
            #expect(try await server.database.store.deleteLocation(objectId: first.objectId, in: .default))
            try await server.start()

            // The sequence reconnects with the last id it delivered: what it missed, then ready.
            #expect(try await updates.next() == .deleted(objectId: first.objectId))
            guard case .ready? = try await updates.next() else { throw TestFailure("no ready after resuming") }
            let second = try await writer.post(NewLocation(mapString: "Paris", mediaURL: "https://example.com", latitude: 48.85, longitude: 2.35))
            guard case .created(let again)? = try await updates.next() else { throw TestFailure("no created event after the restart") }
            #expect(again.objectId == second.objectId && again.mapString == "Paris")
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: KitTransport.allCases)
    func liveEventsSayWhenTheStreamIsReconnecting(transport: KitTransport) async throws {
        try await RestartableServer.run { server in
            try await server.start()
            var events = transport.client(port: server.port).liveEvents().makeAsyncIterator()
            #expect(try await events.next() == .connected)
            guard case .update(.ready)? = try await events.next() else { throw TestFailure("no ready after connecting") }

            // The server goes: the stream says it is reconnecting (at once when the server said it
            // was restarting), and each attempt that finds it down says when the next one is.
            try await server.stop()
            var pauses: [Duration] = []
            repeat {
                guard case .reconnecting(let pause)? = try await events.next() else {
                    throw TestFailure("the stream did not say it was reconnecting, after \(pauses)")
                }
                pauses.append(pause)
            } while pauses.last == .zero && pauses.count < 3
            #expect(pauses.last.map { $0 >= .seconds(1) && $0 <= .seconds(30) } == true, "pauses \(pauses)")

            // It comes back: connected, then caught up.
            try await server.start()
            #expect(try await events.next() == .connected)
            guard case .update(.ready)? = try await events.next() else { throw TestFailure("no ready after reconnecting") }
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: KitTransport.allCases)
    func anIdTheServerCannotReplayFromSaysReload(transport: KitTransport) async throws {
        try await KitSuite.live({ $0.live.heartbeat = .seconds(3600) }) { _, port in
            var updates = transport.client(port: port).liveUpdates(after: "999999999999").makeAsyncIterator()
            guard case .reload(let reason)? = try await updates.next() else { throw TestFailure("no reload for an id ahead of the stream") }
            #expect(reason.contains("ahead"))
            guard case .ready? = try await updates.next() else { throw TestFailure("no ready after the reload") }
        }
    }
}
}

#if canImport(FoundationNetworking)
/// On Linux the event stream's URLSession transport treats a silent connection as dead (a phone
/// that slept hears nothing more on it): the sequence reconnects; heartbeats keep a live one open.
extension KitSuite {
@Suite struct KitSilentStreamTests {
    static func client(port: Int, silenceLimit: TimeInterval) -> OnTheMapClient {
        OnTheMapClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: URLSessionTransport(),
                       eventStreamTransport: StreamingURLSessionTransport(silenceLimit: silenceLimit))
    }

    @Test(.timeLimit(.minutes(1))) func aSilentStreamIsReconnected() async throws {
        try await KitSuite.live({ $0.live.heartbeat = .seconds(3600) }) { _, port in
            var updates = Self.client(port: port, silenceLimit: 1).liveUpdates().makeAsyncIterator()
            guard case .ready? = try await updates.next() else { throw TestFailure("no ready") }
            // Nothing is written: after a second of silence the sequence opens a new stream.
            guard case .ready? = try await updates.next() else { throw TestFailure("no second ready after the silence") }
        }
    }

    @Test(.timeLimit(.minutes(1))) func heartbeatsKeepAStreamOpen() async throws {
        try await KitSuite.live({ $0.live.heartbeat = .milliseconds(300) }) { server, port in
            var updates = Self.client(port: port, silenceLimit: 2).liveUpdates().makeAsyncIterator()
            guard case .ready? = try await updates.next() else { throw TestFailure("no ready") }
            try await Task.sleep(for: .seconds(4))
            let student = try await server.signUp()
            let id = try await server.postLocation(as: student)
            guard case .created(let pin)? = try await updates.next() else { throw TestFailure("the next event was not the post") }
            #expect(pin.objectId == id)
        }
    }
}
}
#endif
