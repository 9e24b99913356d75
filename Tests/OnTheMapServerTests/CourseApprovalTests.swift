import Foundation
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapStore
import Testing

/// "Instructors approve a pin before others see it" (issue 42, item 2): a student's pin waits,
/// seen by its owner (marked waiting) and the course's instructors, on every family's path; an
/// instructor's shows at once; approving shows it and declining hides it, each in the course's
/// audit log; the default course never asks for it.
@Suite struct CourseApprovalTests {
    @Test func aStudentsPinWaitsForTheInstructorAndShowsOnceApproved() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp(), student = try await server.signUp(first: "Grace"), classmate = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, students: [student, classmate])
            let turnedOn = try await server.send(.patch, "/c/cs101/v1/course", body: #"{"approvalRequired": true}"#, headers: teacher.bearerHeader)
            #expect(turnedOn.status == .ok)
            #expect(try turnedOn.object()["approvalRequired"] as? Bool == true)

            // Posted: the student sees it, waiting; nobody else does, on any path or in the count.
            let pin = try await server.postLocation(as: student, mapString: "Lima", path: "/c/cs101/v1/StudentLocation")
            let mine = try await server.send(.get, "/c/cs101/v1/me", headers: student.bearerHeader).object()
            #expect(mine["locationAwaitingApproval"] as? Bool == true && mine["locationHidden"] as? Bool == false)
            #expect((mine["location"] as? [String: Any])?["objectId"] as? String == pin)
            for path in ["/c/cs101/v1/StudentLocation", "/c/cs101/parse/classes/StudentLocation", "/c/cs101/1/classes/StudentLocation"] {
                #expect(try await server.list(path, as: classmate).isEmpty, "\(path)")
                #expect(try await server.list(path, as: teacher).isEmpty, "\(path): the map is the public's, instructors included")
            }
            #expect(try await server.send(.get, "/c/cs101/v1/StudentLocation/\(pin)", headers: classmate.bearerHeader).status == .notFound)
            let counted = try await server.send(.get, "/c/cs101/parse/classes/StudentLocation?count=1&limit=0", headers: classmate.bearerHeader)
            #expect(try counted.object()["count"] as? Int == 0)

            // The instructors' list of what waits; a student may not read it.
            let waiting = try await server.send(.get, "/c/cs101/v1/course/approvals", headers: teacher.bearerHeader)
            let pins = try #require(try waiting.object()["results"] as? [[String: Any]])
            #expect(pins.map { $0["objectId"] as? String } == [pin])
            #expect(pins.first?["awaitingApproval"] as? Bool == true && pins.first?["hidden"] as? Bool == true)
            #expect(try await server.send(.get, "/c/cs101/v1/course/approvals", headers: student.bearerHeader).status == .forbidden)
            let roster = try await server.send(.get, "/c/cs101/v1/course/members", headers: teacher.bearerHeader).object()
            let row = (roster["results"] as? [[String: Any]])?.first { $0["key"] as? String == student.key }
            #expect((row?["location"] as? [String: Any])?["awaitingApproval"] as? Bool == true)

            // An instructor's own pin shows at once.
            let theirs = try await server.postLocation(as: teacher, mapString: "Quito", path: "/c/cs101/v1/StudentLocation")
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: classmate).map(\.objectId) == [theirs])

            // Approved: on the map, no longer waiting, in the course's log.
            let approved = try await server.send(.patch, "/c/cs101/v1/course/locations/\(pin)", body: #"{"hidden": false}"#, headers: teacher.bearerHeader)
            #expect(approved.status == .ok)
            #expect(try approved.object()["awaitingApproval"] as? Bool == false)
            #expect(Set(try await server.list("/c/cs101/v1/StudentLocation", as: classmate).map(\.objectId)) == [pin, theirs])
            #expect(try await server.send(.get, "/c/cs101/v1/me", headers: student.bearerHeader).object()["locationAwaitingApproval"] as? Bool == false)
            #expect(try await server.send(.get, "/c/cs101/v1/course/approvals", headers: teacher.bearerHeader).data == Data(#"{"results":[]}"#.utf8))

            // Changed through another family's path: it waits again, gone from the map meanwhile.
            let moved = try await server.send(
                .put, "/c/cs101/parse/classes/StudentLocation/\(pin)", body: #"{"mapString": "Bogotá"}"#, headers: student.bearerHeader)
            #expect(moved.status == .ok)
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: classmate).map(\.objectId) == [theirs])
            #expect(try await server.send(.get, "/c/cs101/v1/me", headers: student.bearerHeader).object()["locationAwaitingApproval"] as? Bool == true)

            // Declined: hidden for good, as a moderator's hiding; posting again does not bring it back.
            let declined = try await server.send(.patch, "/c/cs101/v1/course/locations/\(pin)", body: #"{"hidden": true}"#, headers: teacher.bearerHeader)
            #expect(declined.status == .ok)
            try await server.postLocation(as: student, mapString: "Caracas", path: "/c/cs101/v1/StudentLocation")
            let after = try await server.send(.get, "/c/cs101/v1/me", headers: student.bearerHeader).object()
            #expect(after["locationAwaitingApproval"] as? Bool == false && after["locationHidden"] as? Bool == true)
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: classmate).map(\.objectId) == [theirs])
            let log = try await server.send(.get, "/c/cs101/v1/course/audit", headers: teacher.bearerHeader).object()
            let actions = (log["results"] as? [[String: Any]])?.compactMap { $0["action"] as? String }
            #expect(actions == ["decline-location", "approve-location", "change-course"])
            #expect((log["results"] as? [[String: Any]])?.last?["detail"] as? String == "instructors approve each pin")

            // Turned off: a new pin shows at once.
            _ = try await server.send(.patch, "/c/cs101/v1/course", body: #"{"approvalRequired": false}"#, headers: teacher.bearerHeader)
            let classmates = try await server.postLocation(as: classmate, mapString: "Lima", path: "/c/cs101/v1/StudentLocation")
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: student).map(\.objectId).contains(classmates))
        }
    }

    @Test func theDefaultCourseNeverAsksForApproval() async throws {
        try await TestServer.run { server in
            let admin = try await server.signUp()
            try await server.makeAdmin(admin)
            let asked = try await server.send(.patch, "/v1/course", body: #"{"approvalRequired": true}"#, headers: admin.bearerHeader)
            #expect(asked.status == .badRequest)
            #expect(try asked.object()["parameter"] as? String == "approvalRequired")
            #expect(try await server.send(.get, "/v1/course", headers: admin.bearerHeader).object()["approvalRequired"] as? Bool == false)
            let pin = try await server.postLocation(as: admin)
            #expect(try await server.list("/v1/StudentLocation").map(\.objectId) == [pin])
        }
    }
}
