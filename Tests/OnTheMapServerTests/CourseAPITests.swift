import Foundation
import HTTPTypes
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// The course operations over HTTP (docs/API.md, "Courses"): an instructor makes a course, turns
/// its invite link on, a student joins with it, the instructor sees the roster and who posted,
/// changes the settings; nobody else may, and each refusal changes nothing.
@Suite struct CourseAPITests {
    @Test func anInstructorMakesACourseAndAStudentJoinsItByTheLink() async throws {
        try await TestServer.run(configure: { $0.publicURL = PublicURL("https://map.example.org") }, geocoder: await TestServer.loadedGeocoder) { server in
            let teacher = try await server.signUp(email: "teacher@example.com"), student = try await server.signUp(email: "student@example.com")
            let created = try await server.send(.post, "/v1/courses", body: #"{"slug": "cs101", "title": " CS 101 "}"#, headers: teacher.bearerHeader)
            #expect(created.status == .created)
            let course = try created.object()
            #expect(course["slug"] as? String == "cs101" && course["title"] as? String == "CS 101" && course["path"] as? String == "/c/cs101/")
            #expect(course["role"] as? String == "instructor" && course["visibility"] as? String == "members")
            let invite = try #require(course["invite"] as? [String: Any])
            #expect(invite["enabled"] as? Bool == false)
            let url = try #require(invite["url"] as? String)
            #expect(url.hasPrefix("https://map.example.org/c/cs101/join/"))
            let token = String(try #require(url.split(separator: "/").last))

            // Off: the link admits nobody. On: the student joins, once.
            let refused = try await server.send(.post, "/c/cs101/v1/course/join", body: #"{"invite": "\#(token)"}"#, headers: student.bearerHeader)
            #expect(refused.status == .forbidden)
            let on = try await server.send(.post, "/c/cs101/v1/course/invite", body: #"{"enabled": true}"#, headers: teacher.bearerHeader)
            #expect((try on.object()["invite"] as? [String: Any])?["enabled"] as? Bool == true)
            let joined = try await server.send(.post, "/c/cs101/v1/course/join", body: #"{"invite": "\#(token)"}"#, headers: student.bearerHeader)
            #expect(joined.status == .created)
            #expect(try joined.object()["role"] as? String == "student")
            #expect(try joined.object()["invite"] is NSNull, "a student is not shown the link")
            #expect(try await server.send(.post, "/c/cs101/v1/course/join", body: #"{"invite": "\#(token)"}"#, headers: student.bearerHeader).status == .ok)

            // The student is a member now: the map takes their pin; the roster shows it.
            try await server.postLocation(as: student, mapString: "Quito", path: "/c/cs101/v1/StudentLocation")
            let roster = try await server.send(.get, "/c/cs101/v1/course/members", headers: teacher.bearerHeader)
            let members = try #require(try roster.object()["results"] as? [[String: Any]])
            #expect(members.map { $0["email"] as? String } == ["teacher@example.com", "student@example.com"])
            #expect((members[1]["location"] as? [String: Any])?["mapString"] as? String == "Quito")
            #expect(members[0]["location"] is NSNull)
            // Each pin's time zone, from its place (the geocoder's nearest town), for the course page's hours.
            #expect(members[1]["timeZone"] as? String == "America/Los_Angeles", "posted at 47.6, -122.3")
            #expect(members[0]["timeZone"] is NSNull, "no pin, no time zone")

            let mine = try await server.send(.get, "/v1/courses", headers: student.bearerHeader)
            #expect((try mine.object()["results"] as? [[String: Any]])?.map { $0["slug"] as? String } == ["default", "cs101"])
            #expect(try await server.send(.get, "/v1/course").status == .ok, "the default course at the root")
        }
    }

    @Test func onlyTheCoursesInstructorsChangeItAndEachRefusalChangesNothing() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp(), student = try await server.signUp(), stranger = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, students: [student])
            let before = try await server.send(.get, "/c/cs101/v1/course", headers: teacher.bearerHeader).data

            for session in [student, stranger] {
                for (method, path, body) in [(HTTPRequest.Method.patch, "/c/cs101/v1/course", #"{"visibility": "link"}"#),
                                             (.post, "/c/cs101/v1/course/invite", #"{"new": true}"#),
                                             (.get, "/c/cs101/v1/course/members", nil),
                                             (.post, "/c/cs101/v1/course/members", #"{"list": "x@example.com"}"#),
                                             (.delete, "/c/cs101/v1/course/members/\(teacher.key)", nil)] {
                    let response = try await server.send(method, path, body: body, headers: session.bearerHeader)
                    #expect(response.status == .forbidden, "\(method) \(path)")
                }
            }
            #expect(try await server.send(.get, "/c/cs101/v1/course").status == .unauthorized)
            #expect(try await server.send(.get, "/c/cs101/v1/course", headers: stranger.bearerHeader).status == .forbidden)
            #expect(try await server.send(.get, "/c/cs101/v1/course", headers: teacher.bearerHeader).data == before)
            #expect(try await server.store.pendingMembers(of: try #require(try await server.store.course(slug: CourseSlug(rawValue: "cs101")!)).id).isEmpty)

            // Bad bodies: a 400 naming the field.
            for body in [#"{"visibility": "everyone"}"#, #"{"title": ""}"#, #"{"archived": "yes"}"#, #"{"colour": "red"}"#, "{}", "[]"] {
                let response = try await server.send(.patch, "/c/cs101/v1/course", body: body, headers: teacher.bearerHeader)
                #expect(response.status == .badRequest, "\(body)")
            }
            for body in [#"{"slug": "cs101", "title": "Again"}"#, #"{"slug": "Bad Slug", "title": "T"}"#, #"{"title": "T"}"#] {
                let response = try await server.send(.post, "/v1/courses", body: body, headers: student.bearerHeader)
                #expect([400, 409].contains(response.status.code), "\(body): \(response.status)")
            }
            #expect(try await server.send(.patch, "/v1/course", body: #"{"archived": true}"#, headers: teacher.bearerHeader).status == .forbidden,
                    "the default course's instructors are its admins")
        }
    }

    @Test func anInstructorManagesTheRosterAndTheSettings() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp(email: "t@example.com"), ada = try await server.signUp(email: "ada@example.com")
            try await server.makeCourse("cs101", instructor: teacher)
            let added = try await server.send(.post, "/c/cs101/v1/course/members", body: #"""
                {"list": "Ada <ADA@example.com>\nnew@example.com\nno address here"}
                """#, headers: teacher.bearerHeader)
            #expect(added.status == .ok)
            let outcome = try added.object()
            #expect(outcome["added"] as? [String] == ["ada@example.com"] && outcome["waiting"] as? [String] == ["new@example.com"])
            #expect(outcome["unreadable"] as? [String] == ["no address here"])
            let adaPin = try await server.postLocation(as: ada, path: "/c/cs101/v1/StudentLocation")

            // Removing a member takes their pin off the course's map; a waiting email is forgotten.
            #expect(try await server.send(.delete, "/c/cs101/v1/course/members/\(ada.key)", headers: teacher.bearerHeader).status == .ok)
            #expect(try await server.store.location(objectId: adaPin) == nil)
            #expect(try await server.send(.delete, "/c/cs101/v1/course/members/new@example.com", headers: teacher.bearerHeader).status == .ok)
            #expect(try await server.send(.delete, "/c/cs101/v1/course/members/new@example.com", headers: teacher.bearerHeader).status == .notFound)
            #expect(try await server.send(.delete, "/c/cs101/v1/course/members/\(teacher.key)", headers: teacher.bearerHeader).status == .conflict)

            // Settings: seen at once by this instance's paths.
            let changed = try await server.send(.patch, "/c/cs101/v1/course", body: #"{"visibility": "link", "title": "CS 101, spring"}"#,
                                                headers: teacher.bearerHeader)
            #expect(try changed.object()["title"] as? String == "CS 101, spring")
            #expect(try await server.send(.get, "/c/cs101/v1/StudentLocation").status == .ok, "readable by link now")
            #expect(try await server.send(.patch, "/c/cs101/v1/course", body: #"{"archived": true}"#, headers: teacher.bearerHeader).status == .ok)
            #expect(try await server.send(.post, "/c/cs101/v1/StudentLocation", body: CourseMountTests.body, headers: teacher.bearerHeader).status == .forbidden)
        }
    }

    @Test func aCourseIsDeletedByItsInstructorOnceTheyNameIt() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp(), student = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, students: [student])
            let pin = try await server.postLocation(as: student, path: "/c/cs101/v1/StudentLocation")
            #expect(try await server.send(.delete, "/c/cs101/v1/course?confirm=cs101", headers: student.bearerHeader).status == .forbidden)
            let unconfirmed = try await server.send(.delete, "/c/cs101/v1/course?confirm=CS101", headers: teacher.bearerHeader)
            #expect(unconfirmed.status == .badRequest)
            #expect(try unconfirmed.object()["parameter"] as? String == "confirm")
            #expect(try await server.store.location(objectId: pin) != nil, "a refusal deletes nothing")
            try await server.makeAdmin(teacher)
            #expect(try await server.send(.delete, "/v1/course?confirm=default", headers: teacher.bearerHeader).status == .forbidden)

            #expect(try await server.send(.delete, "/c/cs101/v1/course?confirm=cs101", headers: teacher.bearerHeader).status == .ok)
            #expect(try await server.store.location(objectId: pin) == nil)
            #expect(try await server.send(.get, "/c/cs101/v1/StudentLocation", headers: student.bearerHeader).status == .notFound)
            // The slug is free again.
            #expect(try await server.send(.post, "/v1/courses", body: #"{"slug": "cs101", "title": "Again"}"#, headers: student.bearerHeader).status == .created)
        }
    }

    /// Another process deleted the course in the seconds this server still knows it: a write there
    /// is a 404, not a server error, and changes nothing.
    @Test func aWriteToACourseDeletedElsewhereIsNotFound() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp()
            // An admin: a member would be refused first, their membership gone with the course.
            try await server.makeAdmin(teacher)
            let course = try await server.makeCourse("cs101", instructor: teacher)
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: teacher).isEmpty, "the server now knows the course")
            #expect(try await server.store.deleteCourse(course.id))
            let write = try await server.send(.post, "/c/cs101/parse/classes/StudentLocation", body: CourseMountTests.body, headers: teacher.bearerHeader)
            #expect(write.status == .notFound)
            #expect(Set(try write.object().keys) == ["code", "error"])
        }
    }

    @Test func aMembersRequestToACourseDeletedElsewhereIsNotFoundNotRefused() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp(), student = try await server.signUp()
            let course = try await server.makeCourse("cs101", instructor: teacher, students: [student])
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: student).isEmpty, "the server now knows the course")
            // Deleted by another instance: this one remembers the course for a few seconds more.
            #expect(try await server.store.deleteCourse(course.id))
            for (method, path) in [(HTTPRequest.Method.get, "/c/cs101/v1/StudentLocation"), (.get, "/c/cs101/parse/classes/StudentLocation"),
                                   (.get, "/c/cs101/v1/me"), (.get, "/c/cs101/v1/course/members")] {
                let answer = try await server.send(method, path, headers: (path.hasSuffix("members") ? teacher : student).bearerHeader)
                #expect(answer.status == .notFound, "\(path)")
            }
            // A stranger to a course that is there is still refused as one.
            try await server.makeCourse("bio200", instructor: teacher)
            #expect(try await server.send(.get, "/c/bio200/v1/StudentLocation", headers: student.bearerHeader).status == .forbidden)
        }
    }

    @Test func meAtACoursesPathIsTheCallersPinInThatCourse() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp(), student = try await server.signUp(), stranger = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, students: [student])
            try await server.postLocation(as: student, mapString: "Quito", path: "/c/cs101/v1/StudentLocation")
            try await server.postLocation(as: student, mapString: "Lima")

            let inCourse = try await server.send(.get, "/c/cs101/v1/me", headers: student.bearerHeader)
            #expect(inCourse.status == .ok)
            #expect((try inCourse.object()["location"] as? [String: Any])?["mapString"] as? String == "Quito")
            let atRoot = try await server.send(.get, "/v1/me", headers: student.bearerHeader)
            #expect((try atRoot.object()["location"] as? [String: Any])?["mapString"] as? String == "Lima")
            #expect(try await server.send(.get, "/c/cs101/v1/me", headers: teacher.bearerHeader).object()["location"] is NSNull)

            #expect(try await server.send(.get, "/c/cs101/v1/me", headers: stranger.bearerHeader).status == .forbidden)
            #expect(try await server.send(.get, "/c/cs101/v1/me").status == .unauthorized)
            #expect(try await server.send(.get, "/c/nope/v1/me", headers: student.bearerHeader).status == .notFound)
        }
    }

    @Test func onAServerWhoseAdminsStartCoursesOthersAreRefusedAndTold() async throws {
        try await TestServer.run(configure: { $0.courseCreators = .admins }) { server in
            let student = try await server.signUp(), admin = try await server.signUp()
            try await server.makeAdmin(admin)
            let listed = try await server.send(.get, "/v1/courses", headers: student.bearerHeader)
            #expect(try listed.object()["canCreate"] as? Bool == false)
            let refused = try await server.send(.post, "/v1/courses", body: #"{"slug": "cs101", "title": "CS 101"}"#, headers: student.bearerHeader)
            #expect(refused.status == .forbidden)
            #expect(try refused.object()["error"] as? String == "Only the server's admins start courses here; ask one to start yours.")
            #expect(try await server.store.course(slug: CourseSlug(rawValue: "cs101")!) == nil, "a refusal makes nothing")
            #expect(try await server.send(.get, "/v1/courses", headers: admin.bearerHeader).object()["canCreate"] as? Bool == true)
            let made = try await server.send(.post, "/v1/courses", body: #"{"slug": "cs101", "title": "CS 101"}"#, headers: admin.bearerHeader)
            #expect(made.status == .created)
        }
        try await TestServer.run { server in
            let student = try await server.signUp()
            #expect(try await server.send(.get, "/v1/courses", headers: student.bearerHeader).object()["canCreate"] as? Bool == true)
        }
    }

    @Test func everyChangeOfACourseIsInTheAuditLogWithWhoMadeIt() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp(email: "teacher@example.com"), student = try await server.signUp(email: "student@example.com")
            let send = { (method: HTTPRequest.Method, path: String, body: String?) in
                let answer = try await server.send(method, path, body: body, headers: teacher.bearerHeader)
                #expect(answer.status.code < 300, "\(method) \(path): \(answer.text)")
            }
            try await send(.post, "/v1/courses", #"{"slug": "cs101", "title": "CS 101"}"#)
            try await send(.patch, "/c/cs101/v1/course", #"{"visibility": "link", "archived": true}"#)
            try await send(.patch, "/c/cs101/v1/course", #"{"archived": false}"#)
            try await send(.post, "/c/cs101/v1/course/invite", #"{"new": true}"#)
            try await send(.post, "/c/cs101/v1/course/members", #"{"list": "student@example.com\nlater@example.com"}"#)
            try await send(.delete, "/c/cs101/v1/course/members/\(student.key)", nil)
            // A refused change leaves no entry.
            #expect(try await server.send(.delete, "/c/cs101/v1/course?confirm=nope", headers: teacher.bearerHeader).status == .badRequest)
            let course = try #require(try await server.store.course(slug: CourseSlug(rawValue: "cs101")!))
            let log = try await server.store.auditLog(limit: 20, before: nil, in: course.id).reversed()
            #expect(log.map(\.action) == [.createCourse, .changeCourse, .changeCourse, .changeInvite, .addMembers, .removeMember])
            #expect(log.allSatisfy { $0.actorEmail == "teacher@example.com" && $0.target == "cs101" && $0.course == course.id })
            #expect(log.map(\.detail) == [
                "CS 101, taught by teacher@example.com", "visibility: link; archived", "no longer archived",
                "a new invite link (the old one stops working)", "students: 1 added, 1 joining when they sign up, 0 already members",
                "student@example.com",
            ])
            try await send(.delete, "/c/cs101/v1/course?confirm=cs101", nil)
            let kept = try await server.store.auditLog(limit: 20, before: nil, in: course.id)
            #expect(kept.first?.action == .deleteCourse && kept.count == 7, "the log keeps a deleted course's entries")
        }
    }

    @Test func theInviteLinkOpensTheAppsJoinScreen() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher)
            let token = "AbCdEfGhIjKlMnOpQrSt-_"
            let answer = try await server.send(.get, "/c/cs101/join/\(token)")
            #expect(answer.status == .seeOther)
            #expect(answer.headers[.location] == "/#/join/cs101/\(token)")
            // Whether the token admits anyone is the join's to say; a link of another shape is no link.
            for path in ["/c/cs101/join/short", "/c/cs101/join/\(token)x", "/c/CS101/join/\(token)", "/c/cs101/join/AbCdEfGhIjKlMnOpQrSt%3C_"] {
                #expect(try await server.send(.get, path).status == .notFound, "\(path)")
            }
            #expect(try await server.send(.post, "/c/cs101/join/\(token)").status == .methodNotAllowed)
        }
    }
}
