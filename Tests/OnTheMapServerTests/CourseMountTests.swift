import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import SQLKit
import Testing

/// Every course serves the compatibility families under `/c/{slug}/` (docs/API.md, "Courses"): an
/// app is pointed at a course by its base URL alone. An unknown course is a 404 in the family's
/// shape, a non-member's write a 403, a member's one session works on each of their courses, and a
/// course's pins never show in another's answers.
@Suite struct CourseMountTests {
    static let body = """
        {"uniqueKey": "ignored", "firstName": "Body", "lastName": "Name", "mapString": "Lima, Peru", "mediaURL": "https://example.com",
         "latitude": -12.05, "longitude": -77.04}
        """

    @Test func everyFamilyServesTheCourseAtItsPath() async throws {
        try await TestServer.run { server in
            let instructor = try await server.signUp(first: "Ines")
            let student = try await server.signUp(first: "Grace")
            try await server.makeCourse("cs101", instructor: instructor, students: [student])
            // Logging in at the course's path, as an app with the course's base URL does.
            let login = try await server.send(.post, "/c/cs101/v1/session", body: """
                {"udacity": {"username": "\(student.email)", "password": "\(student.password)"}}
                """)
            #expect(login.status == .ok)
            let token = try #require(try JSONSerialization.jsonObject(with: try login.unprefixed()) as? [String: Any])
                .dig("session", "id") as? String
            let session = TestSession(key: student.key, token: try #require(token), email: student.email, password: student.password, cookies: [:])

            let first = try await server.postLocation(as: nil, mapString: "Lima", path: "/c/cs101/v1/StudentLocation", extraHeaders: session.bearerHeader)
            // The Parse families overwrite the same pin: one per student per course.
            let parse = try await server.send(.post, "/c/cs101/parse/classes/StudentLocation", body: Self.body, headers: session.bearerHeader)
            #expect(parse.status == .created)
            #expect(try JSONDecoder.strict.decode(StrictCreated.self, from: parse.data).objectId == first)
            #expect(parse.headers[.location] == "/c/cs101/parse/classes/StudentLocation/\(first)", "the Location names the course's path")

            for path in ["/c/cs101/v1/StudentLocation", "/c/cs101/parse/classes/StudentLocation", "/c/cs101/1/classes/StudentLocation"] {
                #expect(try await server.list(path, as: session).map(\.objectId) == [first], "\(path)")
            }
            let one = try await server.send(.get, "/c/cs101/1/classes/StudentLocation/\(first)", headers: session.bearerHeader)
            #expect(try JSONDecoder.strict.decode(StrictLocation.self, from: one.data).mapString == "Lima, Peru")
            let user = try await server.send(.get, "/c/cs101/api/users/\(student.key)", headers: session.bearerHeader)
            #expect(user.status == .ok && (try? user.unprefixed()) != nil)

            // Today's paths serve the default course, which has none of it.
            #expect(try await server.list("/v1/StudentLocation").isEmpty)
            #expect(try await server.send(.get, "/v1/StudentLocation/\(first)").status == .notFound)
            let logout = try await server.send(.delete, "/c/cs101/v1/session", headers: session.bearerHeader)
            #expect(logout.status == .ok)
        }
    }

    @Test(arguments: [
        ("POST", "/c/nope/v1/session", PathFamily.udacity), ("GET", "/c/nope/api/users/abc", .udacity),
        ("GET", "/c/nope/v1/StudentLocation", .v1Locations), ("GET", "/c/nope/v1/StudentLocation/events", .v1Locations),
        ("PUT", "/c/nope/v1/StudentLocation/abc", .v1Locations), ("GET", "/c/nope/parse/classes/StudentLocation", .parse),
        ("POST", "/c/nope/1/classes/StudentLocation", .parse), ("GET", "/c/Not_A_Slug/1/classes/StudentLocation", .parse),
        ("GET", "/c/nope/v1/StudentLocation/abc/extra", .v1Locations),
    ])
    func anUnknownCourseIs404InTheFamilysShape(method: String, path: String, family: PathFamily) async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let before = try await server.snapshot()
            let response = try await server.send(HTTPRequest.Method(method)!, path, body: method == "GET" ? nil : Self.body, headers: student.bearerHeader)
            #expect(response.status == .notFound)
            let object: [String: Any]
            if family == .udacity {
                object = try #require(try JSONSerialization.jsonObject(with: try response.unprefixed()) as? [String: Any])
                #expect(Set(object.keys) == ["status", "error"])
            } else {
                object = try response.object()
                #expect(Set(object.keys) == (family == .parse ? ["code", "error"] : ["status", "code", "error"]))
                #expect(object["code"] as? Int == 101)
            }
            #expect(try await server.snapshot() == before)
        }
    }

    @Test func aNonMembersWritesAreRefusedAndChangeNothing() async throws {
        try await TestServer.run { server in
            let instructor = try await server.signUp()
            let member = try await server.signUp(), stranger = try await server.signUp()
            let course = try await server.makeCourse("cs101", instructor: instructor, students: [member], visibility: .link)
            let pin = try await server.postLocation(as: member, path: "/c/cs101/v1/StudentLocation")
            let pinsBefore = try await server.list("/c/cs101/v1/StudentLocation")
            let sessionsBefore = try await server.snapshot().sessionCount

            // A stranger: their own post, and the member's pin, are refused; anonymous writes need a login.
            let post = try await server.send(.post, "/c/cs101/v1/StudentLocation", body: Self.body, headers: stranger.bearerHeader)
            #expect(post.status == .forbidden)
            #expect(try post.object()["error"] as? String == APIError.notACourseMember.message)
            for method in [HTTPRequest.Method.put, .delete] {
                let response = try await server.send(method, "/c/cs101/parse/classes/StudentLocation/\(pin)", body: Self.body, headers: stranger.bearerHeader)
                #expect(response.status == .forbidden)
                #expect(Set(try response.object().keys) == ["code", "error"])
            }
            #expect(try await server.send(.post, "/c/cs101/1/classes/StudentLocation", body: Self.body).status == .unauthorized)
            // Logging in at the course's paths: refused before a session is made.
            let login = try await server.send(.post, "/c/cs101/api/session", body: """
                {"udacity": {"username": "\(stranger.email)", "password": "\(stranger.password)"}}
                """)
            #expect(login.status == .forbidden)
            #expect(try login.unprefixed().isEmpty == false)
            #expect(try await server.snapshot().sessionCount == sessionsBefore)
            #expect(try await server.list("/c/cs101/v1/StudentLocation").map(\.objectId) == pinsBefore.map(\.objectId))
            #expect(try await server.store.location(objectId: pin)?.course == course.id)

            // An admin may do what a member may, in every course.
            try await server.makeAdmin(stranger)
            #expect(try await server.send(.post, "/c/cs101/v1/StudentLocation", body: Self.body, headers: stranger.bearerHeader).status == .ok)
        }
    }

    @Test func aMembersOnlyCourseIsReadByItsMembersOnly() async throws {
        try await TestServer.run { server in
            let instructor = try await server.signUp()
            let member = try await server.signUp(), stranger = try await server.signUp()
            var course = try await server.makeCourse("cs101", instructor: instructor, students: [member])
            let pin = try await server.postLocation(as: member, path: "/c/cs101/v1/StudentLocation")
            for path in ["/c/cs101/v1/StudentLocation", "/c/cs101/parse/classes/StudentLocation/\(pin)", "/c/cs101/v1/StudentLocation/events",
                         "/c/cs101/v1/users/\(member.key)"] {
                #expect(try await server.send(.get, path).status == .unauthorized, "\(path) without a session")
                #expect(try await server.send(.get, path, headers: stranger.bearerHeader).status == .forbidden, "\(path) by a stranger")
            }
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: member).map(\.objectId) == [pin])
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: instructor).map(\.objectId) == [pin])

            // Readable by anyone with the link, once the instructor says so (seen within the
            // directory's few seconds; here at once, since nothing was remembered for long).
            course.visibility = .link
            try await server.store.updateCourse(course)
            server.courseDirectory.forget(course.slug)
            #expect(try await server.list("/c/cs101/v1/StudentLocation").map(\.objectId) == [pin])
            #expect(try await server.send(.post, "/c/cs101/v1/StudentLocation", body: Self.body, headers: stranger.bearerHeader).status == .forbidden)
        }
    }

    @Test func anArchivedCourseIsReadOnly() async throws {
        try await TestServer.run { server in
            let instructor = try await server.signUp()
            let member = try await server.signUp()
            var course = try await server.makeCourse("cs101", instructor: instructor, students: [member])
            let pin = try await server.postLocation(as: member, path: "/c/cs101/v1/StudentLocation")
            course.archivedAt = 2_000
            try await server.store.updateCourse(course)
            server.courseDirectory.forget(course.slug)
            for (method, path) in [(HTTPRequest.Method.post, "/c/cs101/v1/StudentLocation"), (.put, "/c/cs101/v1/StudentLocation/\(pin)"),
                                   (.delete, "/c/cs101/parse/classes/StudentLocation/\(pin)")] {
                let response = try await server.send(method, path, body: Self.body, headers: instructor.bearerHeader)
                #expect(response.status == .forbidden, "\(method) \(path)")
                #expect(try response.object()["error"] as? String == APIError.courseArchived.message)
            }
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: member).map(\.objectId) == [pin])
        }
    }

    @Test func oneSessionServesEachCourseOfItsMemberAndTheirPinsStayApart() async throws {
        try await TestServer.run { server in
            let instructor = try await server.signUp()
            let student = try await server.signUp()
            try await server.makeCourse("cs101", instructor: instructor, students: [student])
            try await server.makeCourse("art-2", instructor: instructor, students: [student])
            let atRoot = try await server.postLocation(as: student, mapString: "Root")
            let inCS = try await server.postLocation(as: student, mapString: "CS", path: "/c/cs101/v1/StudentLocation")
            let inArt = try await server.postLocation(as: student, mapString: "Art", path: "/c/art-2/parse/classes/StudentLocation")
            #expect(Set([atRoot, inCS, inArt]).count == 3, "one pin per course")
            #expect(try await server.list("/v1/StudentLocation").map(\.mapString) == ["Root"])
            #expect(try await server.list("/c/default/v1/StudentLocation").map(\.mapString) == ["Root"], "the default course has its own path too")
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: student).map(\.mapString) == ["CS"])
            #expect(try await server.list("/c/art-2/1/classes/StudentLocation", as: student).map(\.mapString) == ["Art"])
            let counted = try await server.send(.get, "/c/art-2/parse/classes/StudentLocation?count=1&limit=0", headers: student.bearerHeader)
            #expect(try counted.object()["count"] as? Int == 1)

            // Another course's objectId is not there, whatever the method.
            for (method, path) in [(HTTPRequest.Method.get, "/c/cs101/v1/StudentLocation/\(inArt)"), (.put, "/c/cs101/v1/StudentLocation/\(inArt)"),
                                   (.delete, "/c/art-2/1/classes/StudentLocation/\(inCS)"), (.delete, "/v1/StudentLocation/\(inCS)")] {
                let response = try await server.send(method, path, body: method == .get ? nil : Self.body, headers: student.bearerHeader)
                #expect(response.status == .notFound, "\(method) \(path)")
            }
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: student).map(\.mapString) == ["CS"])
        }
    }

    @Test func aCoursesWritesKeepTheCrossSiteAndSizeRules() async throws {
        try await TestServer.run { server in
            let instructor = try await server.signUp()
            let member = try await server.signUp()
            try await server.makeCourse("cs101", instructor: instructor, students: [member])
            let crossSite = try await server.send(
                .post, "/c/cs101/v1/StudentLocation", body: Self.body, headers: member.cookieHeader + [.origin: "https://evil.example"])
            #expect(crossSite.status == .forbidden)
            let huge = String(repeating: "a", count: 70_000)
            let oversized = try await server.send(
                .post, "/c/cs101/parse/classes/StudentLocation", body: #"{"mapString": "\#(huge)"}"#, headers: member.bearerHeader)
            #expect(oversized.status == .contentTooLarge)
            #expect(Set(try oversized.object().keys) == ["code", "error"])
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: member).isEmpty)
        }
    }

    /// An account made by an instance of the release before courses has no membership written:
    /// in the default course, which everyone joins, it is a member all the same.
    @Test func everyAccountIsAMemberOfTheCourseEveryoneJoins() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            try await server.store.writer.run(SQLQueryString("DELETE FROM course_members WHERE account_key = \(bind: student.key)"))
            try await server.postLocation(as: student)
            try await server.postLocation(as: student, path: "/c/default/parse/classes/StudentLocation")
            let login = try await server.send(.post, "/c/default/v1/session", body: """
                {"udacity": {"username": "\(student.email)", "password": "\(student.password)"}}
                """)
            #expect(login.status == .ok)
        }
    }

    /// The edge names a course's list route as the router does, so that metrics count it as one.
    @Test func theEdgeNamesACoursesRouteAsTheRouterDoes() {
        let path = CourseMount.namedPrefix + LocationOperations.v1.basePath
        #expect(CourseMount.namedRoutePrefix + LocationOperations.v1.basePath == RouterPath(path).description)
    }

    @Test func theEdgeAnswersALinkCoursesListAndLeavesAMembersOnlyOneToTheRouter() async throws {
        try await TestServer.run(live: true) { server in
            let port = try #require(server.client.port)
            let instructor = try await server.signUp()
            try await server.makeCourse("open-map", instructor: instructor, visibility: .link)
            try await server.makeCourse("closed", instructor: instructor)
            try await server.postLocation(as: instructor, mapString: "Open", path: "/c/open-map/v1/StudentLocation")
            let request = "GET /c/open-map/v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            // The router's answer reads the course afresh: the edge then has it for the directory's
            // 5 s, whatever the wait since the course was made on a loaded machine.
            server.courseDirectory.forget(try #require(CourseSlug(rawValue: "open-map")))
            let fromRouter = try await CachedListFastPathTests.exchange(port, request)
            let before = try CachedListFastPathTests.answeredByEdge(server)
            let fromEdge = try await CachedListFastPathTests.exchange(port, request)
            #expect(try CachedListFastPathTests.answeredByEdge(server) == before + 1)
            #expect(CachedListFastPathTests.withoutDate(fromEdge) == CachedListFastPathTests.withoutDate(fromRouter))
            #expect(String(decoding: fromEdge, as: UTF8.self).contains("Open"))

            let closed = "GET /c/closed/v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            for _ in 0..<2 {
                let answer = try await CachedListFastPathTests.exchange(port, closed)
                #expect(answer.starts(with: Array("HTTP/1.1 401".utf8)))
            }
            #expect(try CachedListFastPathTests.answeredByEdge(server) == before + 1)
        }
    }
}

private extension Dictionary where Key == String, Value == Any {
    func dig(_ first: String, _ second: String) -> Any? { (self[first] as? [String: Any])?[second] }
}

/// The parsing budget holds on every course's routes as at the root: a body nested past the
/// limit is a 400 in the family's shape, read in time linear in its size, and changes nothing.
@Suite struct CourseRoutesParsingBudgetTests {
    @Test func aBodyNestedTooDeepIsRefusedOnEveryCoursesRoutes() async throws {
        try await TestServer.run { server in
            let teacher = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher)
            let deep = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)  // under the 64 KiB cap
            let before = try await server.snapshot()
            for path in ["/c/cs101/v1/StudentLocation", "/c/cs101/parse/classes/StudentLocation", "/c/cs101/1/classes/StudentLocation",
                         "/c/cs101/v1/session", "/c/cs101/api/session", "/c/cs101/v1/course/members", "/c/cs101/v1/course/join"] {
                let answer = try await server.send(.post, path, body: deep, headers: teacher.bearerHeader)
                #expect(answer.status == .badRequest, "\(path): \(answer.status)")
                // The session's family answers any body it cannot read in the old backend's words.
                let words = path.hasSuffix("/session") ? "Did not specify exactly one credential." : "levels deep"
                #expect(answer.text.contains(words), "\(path): \(answer.text.prefix(200))")
                #expect(answer.text.hasPrefix(")]}'\n") == path.hasSuffix("/session"), "\(path): the family's shape")
            }
            #expect(try await server.snapshot() == before)
        }
    }
}
