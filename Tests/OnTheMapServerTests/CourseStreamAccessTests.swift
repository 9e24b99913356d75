import Foundation
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// A live stream of a course is checked when it opens and again at each heartbeat: once its reader
/// may no longer read the course (made members-only, the reader taken out of it), the stream ends
/// with `reconnect`, and opening it again is refused. Readers who still may keep theirs.
@Suite struct CourseStreamAccessTests {
    static let path = "/c/cs101/v1/StudentLocation/events"

    @Test func aStreamEndsOnceItsReaderMayNoLongerReadTheCourse() async throws {
        try await LiveEventsTests.live({ $0.live.heartbeat = .milliseconds(100) }) { server, port in
            let teacher = try await server.signUp(), member = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, students: [member], visibility: .link)
            let anonymous = try await EventStreamClient(port: port, path: Self.path)
            let student = try await EventStreamClient(port: port, path: Self.path, headers: [("Authorization", "Bearer \(member.token)")])
            #expect(try await anonymous.events(through: "heartbeat").map(\.name) == ["ready", "heartbeat"])
            #expect(try await student.events(through: "heartbeat").map(\.name) == ["ready", "heartbeat"])

            // Members only: the anonymous reader's stream ends; the member's goes on.
            let changed = try await server.send(.patch, "/c/cs101/v1/course", body: #"{"visibility": "members"}"#, headers: teacher.bearerHeader)
            #expect(changed.status == .ok)
            let ending = try await Self.reconnect(anonymous)
            #expect(try ending?.object()["reason"] as? String == "access to this course changed")
            #expect(try await anonymous.next() == nil, "and closes")
            #expect(try await server.send(.get, Self.path).status == .unauthorized)
            for _ in 0..<3 { #expect(try await student.next()?.name == "heartbeat") }

            // Taken out of the course: theirs ends too.
            let removed = try await server.send(.delete, "/c/cs101/v1/course/members/\(member.key)", headers: teacher.bearerHeader)
            #expect(removed.status == .ok)
            #expect(try await Self.reconnect(student)?.name == "reconnect")
            #expect(try await server.send(.get, Self.path, headers: member.bearerHeader).status == .forbidden)
        }
    }

    @Test func aDeletedCoursesStreamsEndWithReload() async throws {
        try await LiveEventsTests.live({ $0.live.heartbeat = .milliseconds(100) }) { server, port in
            let teacher = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, visibility: .link)
            let stream = try await EventStreamClient(port: port, path: Self.path)
            #expect(try await stream.next()?.name == "ready")
            #expect(try await server.send(.delete, "/c/cs101/v1/course?confirm=cs101", headers: teacher.bearerHeader).status == .ok)
            let ending = try await Self.ending(stream, named: "reload")
            #expect(try ending?.object()["reason"] as? String == "this course was deleted")
            #expect(try await stream.next() == nil, "and closes")
        }
    }

    /// The `reconnect` that ends `stream`, read past its heartbeats, or nil when none comes within
    /// 100 events (ten seconds of heartbeats): a stream that goes on fails the test, not hangs it.
    static func reconnect(_ stream: EventStreamClient) async throws -> EventStreamClient.Event? {
        try await ending(stream, named: "reconnect")
    }

    /// The event named `name`, read past heartbeats, or nil when none comes within 100 events.
    static func ending(_ stream: EventStreamClient, named name: String) async throws -> EventStreamClient.Event? {
        for _ in 0..<100 {
            guard let event = try await stream.next() else { return nil }
            if event.name == name { return event }
        }
        return nil
    }
}
