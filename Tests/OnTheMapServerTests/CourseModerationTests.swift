import Foundation
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapStore
import Testing

/// Reports and the audit log belong to the course of the pin they are about: a report is filed in
/// the pin's course (and only by someone who may see that pin), an admin's action on a pin is
/// logged in its course, and each is read per course.
@Suite struct CourseModerationTests {
    @Test func reportsAndAuditEntriesAreFiledInThePinsCourse() async throws {
        try await TestServer.run { server in
            let instructor = try await server.signUp(), admin = try await server.signUp()
            try await server.makeAdmin(admin)
            let member = try await server.signUp(), classmate = try await server.signUp(), stranger = try await server.signUp()
            let course = try await server.makeCourse("cs101", instructor: instructor, students: [member, classmate])
            let theirs = try await server.postLocation(as: member, path: "/c/cs101/v1/StudentLocation")
            let atRoot = try await server.postLocation(as: stranger)

            // A stranger to a members-only course cannot see its pin, so cannot report it.
            let unseen = try await server.send(.post, "/v1/reports", body: #"{"objectId": "\#(theirs)", "reason": "spam"}"#, headers: stranger.bearerHeader)
            #expect(unseen.status == .notFound)
            let reported = try await server.send(.post, "/v1/reports", body: #"{"objectId": "\#(theirs)", "reason": "spam"}"#, headers: classmate.bearerHeader)
            #expect(reported.status == .created)
            try await server.send(.post, "/v1/reports", body: #"{"objectId": "\#(atRoot)", "reason": "other"}"#, headers: member.bearerHeader)
            #expect(try await server.store.reports(openOnly: true, limit: 10, in: course.id).map(\.objectId) == [theirs])
            #expect(try await server.store.reports(openOnly: true, limit: 10, in: .default).map(\.objectId) == [atRoot])
            #expect(try await server.store.reportedPins(openOnly: true, limit: 10, skip: 0, in: course.id).map(\.objectId) == [theirs])

            // The admin's hiding, and a dismissal, are logged in the pins' courses.
            let hidden = try await server.send(.patch, "/v1/admin/locations/\(theirs)", body: #"{"hidden": true}"#, headers: admin.bearerHeader)
            #expect(hidden.status == .ok)
            let dismissed = try await server.send(.post, "/v1/admin/reports/\(atRoot)/dismiss", headers: admin.bearerHeader)
            #expect(dismissed.status == .ok)
            let promoted = try await server.send(.patch, "/v1/admin/accounts/\(classmate.key)", body: #"{"isAdmin": true}"#, headers: admin.bearerHeader)
            #expect(promoted.status == .ok)
            #expect(try await server.store.auditLog(limit: 10, before: nil, in: course.id).map(\.action) == [.hideLocation])
            #expect(try await server.store.auditLog(limit: 10, before: nil, in: .default).map(\.action) == [.dismissReports])
            let everything = try await server.store.auditLog(limit: 10, before: nil, in: nil)
            #expect(everything.map(\.course) == [nil, .default, course.id], "an account's change is no course's")
            // The hiding resolved the course's report.
            #expect(try await server.store.reports(openOnly: true, limit: 10, in: course.id).isEmpty)
        }
    }

    @Test func anInstructorModeratesTheirCourseAndNoOther() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp(), other = try await server.signUp()
            let student = try await server.signUp(first: "Grace"), classmate = try await server.signUp()
            let course = try await server.makeCourse("cs101", instructor: teacher, students: [student, classmate])
            try await server.makeCourse("art", instructor: other, students: [student])
            let pin = try await server.postLocation(as: student, mapString: "Lima", path: "/c/cs101/v1/StudentLocation")
            let artPin = try await server.postLocation(as: student, mapString: "Art", path: "/c/art/v1/StudentLocation")
            let rootPin = try await server.postLocation(as: student, mapString: "Root")
            try await server.send(.post, "/v1/reports", body: #"{"objectId": "\#(pin)", "reason": "spam"}"#, headers: classmate.bearerHeader)

            // The course's reports, and no other's.
            let reports = try await server.send(.get, "/c/cs101/v1/course/reports", headers: teacher.bearerHeader)
            #expect((try reports.object()["results"] as? [[String: Any]])?.map { $0["objectId"] as? String } == [pin])
            #expect(try await server.send(.get, "/c/cs101/v1/course/reports", headers: student.bearerHeader).status == .forbidden)

            // Another course's pin is not there, whatever the path says; the root's neither.
            for objectId in [artPin, rootPin] {
                let response = try await server.send(.patch, "/c/cs101/v1/course/locations/\(objectId)", body: #"{"hidden": true}"#, headers: teacher.bearerHeader)
                #expect(response.status == .notFound)
            }
            #expect(try await server.send(.post, "/c/cs101/v1/course/reports/\(artPin)/dismiss", headers: teacher.bearerHeader).status == .notFound)
            #expect(try await server.list("/c/art/v1/StudentLocation", as: student).map(\.objectId) == [artPin])

            // Hiding its own pin: gone from its map, logged in its audit log, the report resolved.
            let hidden = try await server.send(.patch, "/c/cs101/v1/course/locations/\(pin)", body: #"{"hidden": true}"#, headers: teacher.bearerHeader)
            #expect(hidden.status == .ok)
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: teacher).isEmpty)
            let audit = try await server.send(.get, "/c/cs101/v1/course/audit", headers: teacher.bearerHeader)
            #expect((try audit.object()["results"] as? [[String: Any]])?.map { $0["action"] as? String } == ["hide-location"])
            #expect(try await server.store.auditLog(limit: 10, before: nil, in: course.id).first?.actorKey == teacher.key)
            #expect(try await server.send(.get, "/c/art/v1/course/audit", headers: other.bearerHeader).data == Data(#"{"results":[]}"#.utf8))

            // The course's map as a file: its visible pins only.
            _ = try await server.send(.patch, "/c/cs101/v1/course/locations/\(pin)", body: #"{"hidden": false}"#, headers: teacher.bearerHeader)
            let export = try await server.send(.get, "/c/cs101/v1/course/export?format=jsonl", headers: teacher.bearerHeader)
            #expect(export.headers[.contentDisposition] == #"attachment; filename="on-the-map-cs101.jsonl""#)
            #expect(export.text.split(separator: "\n").count == 1 && export.text.contains("Lima"))
        }
    }
}
