import Foundation
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// A course readable by link whose instructor chose `namesShown: initials` shows readers who are
/// not its members only initials, on every road a name takes: the list (cached and not, the edge
/// included), one pin, a user's profile under its path and the live stream. Its members and the
/// server's admins see full names; no pin gives away the account key that leads to the full name.
@Suite struct CourseNamesTests {
    static let list = "/c/cs101/v1/StudentLocation"

    /// A link course showing initials, with a student's pin in it.
    private func initialsCourse(_ server: TestServer) async throws -> (teacher: TestSession, student: TestSession, objectId: String) {
        let teacher = try await server.signUp(first: "Tess", last: "Teacher")
        let student = try await server.signUp(first: "Élodie", last: "Zhang")
        try await server.makeCourse("cs101", instructor: teacher, students: [student], visibility: .link)
        let changed = try await server.send(.patch, "/c/cs101/v1/course", body: #"{"namesShown": "initials"}"#, headers: teacher.bearerHeader)
        #expect(changed.status == .ok)
        let objectId = try await server.postLocation(as: student, mapString: "Lyon", path: Self.list)
        return (teacher, student, objectId)
    }

    @Test func readersWhoAreNotMembersSeeInitialsAndNoAccountKey() async throws {
        try await TestServer.run { server in
            let (teacher, student, objectId) = try await initialsCourse(server)
            let stranger = try await server.signUp(), admin = try await server.signUp()
            try await server.makeAdmin(admin)
            for reader in [nil, stranger] as [TestSession?] {
                // Twice: the second answer comes from the cache, which keeps each audience's list apart.
                for _ in 0..<2 {
                    let pins = try await server.list(Self.list, as: reader)
                    #expect(pins.map { [$0.firstName, $0.lastName, $0.uniqueKey] } == [["É.", "Z.", ""]])
                }
                let one = try await server.send(.get, "\(Self.list)/\(objectId)", headers: reader?.bearerHeader ?? [:]).object()
                #expect([one["firstName"], one["lastName"], one["uniqueKey"]] as? [String] == ["É.", "Z.", ""])
                let answer = try await server.send(.get, "/c/cs101/v1/users/\(student.key)", headers: reader?.bearerHeader ?? [:])
                let profile = try #require(try JSONSerialization.jsonObject(with: try answer.unprefixed()) as? [String: Any])
                let user = try #require(profile["user"] as? [String: Any])
                #expect([user["first_name"], user["last_name"], user["nickname"]] as? [String] == ["É.", "Z.", "É. Z."])
            }
            for reader in [student, teacher, admin] {
                let pins = try await server.list(Self.list, as: reader)
                #expect(pins.map { [$0.firstName, $0.lastName, $0.uniqueKey] } == [["Élodie", "Zhang", student.key]])
            }
            // Full names again: every reader sees them.
            _ = try await server.send(.patch, "/c/cs101/v1/course", body: #"{"namesShown": "full"}"#, headers: teacher.bearerHeader)
            #expect(try await server.list(Self.list).map(\.firstName) == ["Élodie"])
        }
    }

    @Test func theEdgeLeavesAnInitialsCoursesListToTheRouter() async throws {
        try await LiveEventsTests.live { server, port in
            let (_, student, _) = try await initialsCourse(server)
            // A member's read fills the full-names list; an anonymous read still gets initials.
            _ = try await server.list(Self.list, as: student)
            _ = try await server.list(Self.list, as: student)
            // Warmed by a member's reads, the course is remembered; an anonymous read still gets initials.
            let before = try CachedListFastPathTests.answeredByEdge(server)
            let raw = try await CachedListFastPathTests.exchange(port, "GET \(Self.list) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let anonymous = String(decoding: raw, as: UTF8.self)
            #expect(anonymous.contains(#""firstName":"É.""#) && !anonymous.contains("Élodie"))
            #expect(try CachedListFastPathTests.answeredByEdge(server) == before, "the router answered")
        }
    }

    @Test func aNonMembersLiveStreamCarriesInitials() async throws {
        try await LiveEventsTests.live { server, port in
            let (teacher, student, _) = try await initialsCourse(server)
            let path = "/c/cs101/v1/StudentLocation/events"
            let anonymous = try await EventStreamClient(port: port, path: path)
            let member = try await EventStreamClient(port: port, path: path, headers: [("Authorization", "Bearer \(teacher.token)")])
            #expect(try await anonymous.next()?.name == "ready")
            #expect(try await member.next()?.name == "ready")
            try await server.postLocation(as: student, mapString: "Marseille", path: Self.list)
            // The first pin's own event may still come first (on PostgreSQL it is delivered a moment
            // after the stream opened): every event carries the names as this reader sees them.
            let seen = try await Self.events(of: anonymous, through: "Marseille")
            #expect(!seen.isEmpty && seen.allSatisfy { [$0["firstName"], $0["uniqueKey"]] as? [String] == ["É.", ""] })
            let theirs = try await Self.events(of: member, through: "Marseille")
            #expect(!theirs.isEmpty && theirs.allSatisfy { $0["firstName"] as? String == "Élodie" })
        }
    }

    /// The location events of `stream` up to the one at `place` (at most ten), as objects.
    private static func events(of stream: EventStreamClient, through place: String) async throws -> [[String: Any]] {
        var seen: [[String: Any]] = []
        for _ in 0..<10 {
            guard let event = try await stream.next() else { break }
            guard ["created", "updated"].contains(event.name) else { continue }
            let object = try event.object()
            seen.append(object)
            if object["mapString"] as? String == place { return seen }
        }
        throw TestFailure("no event at \(place) among \(seen)")
    }

    @Test func initialsAreWholeLetters() {
        #expect(Course.NamesShown.initial(of: "Élodie") == "É.")
        #expect(Course.NamesShown.initial(of: "김민준") == "김.")
        #expect(Course.NamesShown.initial(of: "  ada") == "a.")
        #expect(Course.NamesShown.initial(of: "") == "")
        #expect(Course.NamesShown.initial(of: "👩🏽‍🔬 Ada") == "👩🏽‍🔬.")
    }
}
