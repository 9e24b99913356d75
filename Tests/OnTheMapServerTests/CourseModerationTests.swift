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
}
