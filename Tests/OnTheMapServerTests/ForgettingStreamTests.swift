import Foundation
import HTTPTypes
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// What a student or a moderator took down cannot be read back by resuming the
/// live stream from an earlier id. Each take-down leaves the pin's newest event only: a hidden,
/// deleted or disabled student's pin replays as `deleted`, a pin made less exact as its new text.
@Suite struct ForgettingStreamTests {
    static let exact = "1600 Pennsylvania Avenue NW, Washington"

    /// The stream a client resuming from `id` gets, up to `ready`, as one text.
    static func replay(after id: String, port: Int) async throws -> (names: [String], text: String) {
        let stream = try await EventStreamClient(port: port, headers: [("Last-Event-ID", id)])
        let events = try await stream.events(through: "ready")
        return (events.map(\.name), events.map(\.data).joined(separator: "\n"))
    }

    /// A student posts the exact place; `takeDown` removes it; a stream resuming from before the
    /// post replays `expected` and never the exact place.
    static func check(
        expected: [String], takeDown: @Sendable (TestServer, TestSession, String) async throws -> Void
    ) async throws {
        try await TestServer.run(configure: { $0.live.heartbeat = .seconds(3600) }, live: true) { server in
            let port = try #require(server.client.port)
            let before = try #require(try await EventStreamClient(port: port).events(through: "ready").last?.id)
            let student = try await server.signUp()
            let pin = try await server.postLocation(as: student, mapString: exact)
            try await takeDown(server, student, pin)
            try await server.store.waitUntilEventsAreFinal()
            let replayed = try await replay(after: before, port: port)
            #expect(replayed.names == expected + ["ready"])
            #expect(!replayed.text.contains("Pennsylvania"), "\(replayed.text)")
            #expect(replayed.text.contains(pin) || expected.isEmpty)
        }
    }

    /// Sends `body` to `path` as a new admin; the change must succeed.
    static func asAdmin(_ server: TestServer, patch path: String, _ body: String) async throws {
        let admin = try await server.signUp()
        try await server.makeAdmin(admin)
        let changed = try await server.send(.patch, path, body: body, headers: admin.bearerHeader)
        #expect(changed.status == .ok, "\(changed.text)")
    }

    @Test func aPinAnAdminHidIsNotReplayed() async throws {
        try await Self.check(expected: ["deleted"]) { server, _, pin in
            try await Self.asAdmin(server, patch: "/v1/admin/locations/\(pin)", #"{"hidden": true}"#)
        }
    }

    @Test func aPinItsOwnerDeletedIsNotReplayed() async throws {
        try await Self.check(expected: ["deleted"]) { server, student, pin in
            let deleted = try await server.send(.delete, "/v1/StudentLocation/\(pin)", headers: student.bearerHeader)
            #expect(deleted.status == .ok, "\(deleted.text)")
        }
    }

    @Test func aDisabledAccountsPinIsNotReplayed() async throws {
        try await Self.check(expected: ["deleted"]) { server, student, _ in
            try await Self.asAdmin(server, patch: "/v1/admin/accounts/\(student.key)", #"{"disabled": true}"#)
        }
    }

    @Test func aPinMadeTownOnlyReplaysTheTownAlone() async throws {
        try await Self.check(expected: ["updated"]) { server, student, _ in
            try await server.postLocation(as: student, mapString: "Washington, DC")
        }
    }

    /// The events kept are the pins' newest: the exact place is gone from the log itself, not
    /// only from what a replay reads, so a copy of the database does not hold it either.
    @Test func theLogKeepsNoEarlierPayloadOfAPin() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let pin = try await server.postLocation(as: student, mapString: Self.exact)
            try await server.postLocation(as: student, mapString: "Washington, DC")
            try await server.store.waitUntilEventsAreFinal()
            let kept = try await server.store.writer.run(SQLQueryString("SELECT kind, payload FROM location_events WHERE object_id = \(bind: pin)"))
            #expect(kept.count == 1)
            #expect(try kept.allSatisfy { !(try $0.decode(column: "payload", as: String?.self) ?? "").contains("Pennsylvania") })
        }
    }
}
