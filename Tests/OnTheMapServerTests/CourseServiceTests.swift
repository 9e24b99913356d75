import Foundation
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapStore
import Testing

/// The rules of `CourseService`, on each engine: slugs and titles, the default course staying, an
/// invite that works only while it is the live one, joining twice, class lists with students who
/// have no account yet, and a course that keeps an instructor. Each refusal changes nothing.
@Suite struct CourseServiceTests {
    static func service(_ server: TestServer) -> CourseService {
        CourseService(store: server.store, secret: ServerSecret(text: String(repeating: "s", count: 32))!)
    }

    @Test func aCourseIsMadeWithAValidSlugAndTitleOnce() async throws {
        try await TestServer.run { server in
            let courses = Self.service(server)
            let teacher = try #require(try await server.store.account(key: try await server.signUp().key))
            for (slug, title, refusal) in [("CS101", "CS", APIError.invalidCourseSlug), ("cs101", "   ", .invalidCourseTitle),
                                           ("cs101", String(repeating: "t", count: 121), .invalidCourseTitle), ("default", "Again", .courseSlugTaken)] {
                await #expect(throws: refusal) { try await courses.create(slug: slug, title: title, instructor: teacher, by: teacher) }
            }
            #expect(try await courses.allCourses().count == 1)
            let course = try await courses.create(slug: "cs101", title: "  CS 101 ", instructor: teacher, by: teacher)
            #expect(course.title == "CS 101")
            #expect(try await server.store.role(of: teacher.key, in: course.id) == .instructor)
            await #expect(throws: APIError.defaultCourseStays) {
                try await courses.change(try await courses.course("default"), to: .init(archived: true), by: teacher)
            }
            await #expect(throws: APIError.courseNotFound) { try await courses.course("nope") }
        }
    }

    @Test func anInviteAdmitsWhileItIsTheLiveOne() async throws {
        try await TestServer.run { server in
            let courses = Self.service(server)
            let teacher = try #require(try await server.store.account(key: try await server.signUp().key))
            let student = try #require(try await server.store.account(key: try await server.signUp().key))
            var course = try await courses.create(slug: "cs101", title: "CS", instructor: teacher, by: teacher)
            let firstLink = courses.invitePath(for: course)
            let token = String(try #require(firstLink.split(separator: "/").last))
            #expect(firstLink == "/c/cs101/join/\(token)" && token.count == 22)

            await #expect(throws: APIError.inviteNotValid, "off until switched on") { try await courses.join(course, token: token, account: student) }
            course = try await courses.setInvite(of: course, enabled: true, by: teacher)
            #expect(courses.invitePath(for: course) == firstLink, "the same link each time it is shown")
            await #expect(throws: APIError.inviteNotValid) { try await courses.join(course, token: token + "x", account: student) }
            #expect(try await courses.join(course, token: token, account: student))
            #expect(try await courses.join(course, token: token, account: student) == false, "joining twice changes nothing")
            #expect(try await server.store.role(of: student.key, in: course.id) == .student)
            #expect(try await courses.join(course, token: token, account: teacher) == false, "an instructor stays one")
            #expect(try await server.store.role(of: teacher.key, in: course.id) == .instructor)

            // A new link ends the old one; an archived course takes nobody.
            course = try await courses.setInvite(of: course, enabled: true, turnOver: true, by: teacher)
            let newToken = String(try #require(courses.invitePath(for: course).split(separator: "/").last))
            #expect(newToken != token)
            let late = try #require(try await server.store.account(key: try await server.signUp().key))
            await #expect(throws: APIError.inviteNotValid) { try await courses.join(course, token: token, account: late) }
            course = try await courses.change(course, to: .init(archived: true), by: teacher)
            await #expect(throws: APIError.inviteNotValid) { try await courses.join(course, token: newToken, account: late) }
            #expect(try await server.store.role(of: late.key, in: course.id) == nil)
        }
    }

    @Test func aClassListAddsMembersAndTheStudentsToComeAndKeepsAnInstructor() async throws {
        try await TestServer.run { server in
            let courses = Self.service(server)
            let teacher = try #require(try await server.store.account(key: try await server.signUp(email: "teacher@example.com").key))
            let ada = try await server.signUp(email: "ada@example.com")
            let course = try await courses.create(slug: "cs101", title: "CS", instructor: teacher, by: teacher)
            let additions = try await courses.add(ClassList("Ada <ADA@example.com>\nnew@example.com\nteacher@example.com"), as: .student, to: course, by: teacher)
                .map { addition -> String in
                    switch addition {
                    case .added(let account): "added \(account.email)"
                    case .alreadyMember(let account): "member \(account.email)"
                    case .waiting(let email): "waiting \(email)"
                    }
                }
            #expect(additions == ["added ada@example.com", "waiting new@example.com", "member teacher@example.com"])
            #expect(try await server.store.role(of: ada.key, in: course.id) == .student)
            #expect(try await server.store.role(of: teacher.key, in: course.id) == .instructor, "a list of students demotes nobody")
            await #expect(throws: APIError.lastInstructor) { try await courses.remove(email: "teacher@example.com", from: course, by: teacher) }
            // A list of instructors promotes.
            _ = try await courses.add(ClassList("ada@example.com"), as: .instructor, to: course, by: teacher)
            #expect(try await server.store.role(of: ada.key, in: course.id) == .instructor)
            _ = try await courses.add(ClassList("ada@example.com"), as: .student, to: course, by: teacher)
            #expect(try await server.store.role(of: ada.key, in: course.id) == .instructor)

            let newcomer = try await server.signUp(email: "new@example.com")
            #expect(try await server.store.role(of: newcomer.key, in: course.id) == .student, "the class list's student joined on signing up")
            #expect(try await courses.remove(email: "ADA@example.com", from: course, by: teacher))
            #expect(try await courses.remove(email: "nobody@example.com", from: course, by: teacher) == false)
            #expect(try await courses.roster(of: course).map(\.account.email) == ["teacher@example.com", "new@example.com"])
            #expect(try await courses.waiting(for: course).isEmpty)
        }
    }
}
