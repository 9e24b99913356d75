import Foundation
import OnTheMapKit
@testable import OnTheMapServer
import Testing

/// A client pointed at a course uses that course's map alone, with the one session an account has;
/// the server's own calls stay at the root.
extension KitSuite {
@Suite struct KitCourseTests {
    static let somewhere = NewLocation(mapString: "Lima, Peru", mediaURL: "https://example.com", latitude: -12.05, longitude: -77.04)

    static func firstUpdate(of client: OnTheMapClient) async throws -> LiveUpdate? {
        var updates = client.liveUpdates().makeAsyncIterator()
        return try await updates.next()
    }

    @Test(arguments: KitTransport.allCases)
    func aClientInACourseListsAndPostsThatCoursesPinsOnly(transport: KitTransport) async throws {
        try await KitSuite.live { server, port in
            let teacher = try await server.signUp(first: "Tess", last: "Teacher")
            let ada = try await server.signUp(first: "Ada", last: "Lovelace")
            let grace = try await server.signUp(first: "Grace", last: "Hopper")
            try await server.makeCourse("cs101", instructor: teacher, students: [ada, grace])
            try await server.makeCourse("bio200", instructor: teacher, students: [ada])
            let gracesDefaultPin = try await server.postLocation(as: grace)

            let root = transport.client(port: port)
            #expect(root.courseSlug == nil)
            let cs101 = root.course("cs101")
            #expect(cs101.courseSlug == "cs101" && cs101.baseURL == root.baseURL)
            // Logged in at the course's path; the one session works in every course Ada is in.
            try await cs101.logIn(email: ada.email, password: ada.password)
            let posted = try await cs101.post(Self.somewhere)
            #expect(try await cs101.latest().map(\.objectId) == [posted.objectId])
            #expect(try await cs101.me().location?.objectId == posted.objectId)

            let biology = cs101.course("bio200")
            #expect(try await biology.latest().isEmpty, "cs101's pin is not bio200's")
            #expect(try await biology.me().location == nil)
            let inBiology = try await biology.post(NewLocation(mapString: "Quito", mediaURL: "https://example.com", latitude: -0.18, longitude: -78.47))
            #expect(inBiology.objectId != posted.objectId, "one pin per course")
            #expect(try await biology.latest().map(\.objectId) == [inBiology.objectId])
            #expect(await kindThrown { try await biology.location(id: posted.objectId) }?.kind == .notFound)
            // The default course, at the root paths, has Grace's pin alone.
            #expect(try await root.latest().map(\.objectId) == [gracesDefaultPin])
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: ada).map(\.objectId) == [posted.objectId])

            try await cs101.overwrite(posted.objectId, with: NewLocation(mapString: "Cusco", mediaURL: "https://example.com", latitude: -13.5, longitude: -72))
            #expect(try await cs101.location(id: posted.objectId).mapString == "Cusco")
            try await cs101.delete(posted.objectId)
            #expect(try await cs101.latest().isEmpty)
            #expect(try await biology.latest().count == 1)
        }
    }

    @Test(arguments: KitTransport.allCases)
    func aBaseURLEndingWithACoursesPathIsThatCourse(transport: KitTransport) async throws {
        try await KitSuite.live { server, port in
            let teacher = try await server.signUp()
            let ada = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, students: [ada])
            let id = try await server.postLocation(as: ada, path: "/c/cs101/v1/StudentLocation")
            for path in ["/c/cs101/", "/c/cs101"] {
                let client = transport.client(port: port, path: path)
                #expect(client.courseSlug == "cs101" && client.baseURL.absoluteString == "http://127.0.0.1:\(port)")
                try await client.logIn(email: ada.email, password: ada.password)
                #expect(try await client.latest().map(\.objectId) == [id])
                // A root-only call stays at the root.
                #expect(try await client.myCourses().map(\.slug) == ["default", "cs101"])
            }
            #expect(try await transport.client(port: port, path: "/").latest().isEmpty, "a trailing slash is the root")
        }
    }

    @Test(.timeLimit(.minutes(2)), arguments: KitTransport.allCases)
    func liveUpdatesOfACourseCarryItsEventsOnly(transport: KitTransport) async throws {
        try await KitSuite.live({ $0.live.heartbeat = .seconds(3600) }) { server, port in
            let teacher = try await server.signUp()
            let ada = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, students: [ada])
            try await server.makeCourse("bio200", instructor: teacher, students: [ada])
            let watcher = transport.client(port: port).course("cs101")
            try await watcher.logIn(email: teacher.email, password: teacher.password)
            var updates = watcher.liveUpdates().makeAsyncIterator()
            guard case .ready? = try await updates.next() else { throw TestFailure("the course's stream did not open with ready") }

            // Posts to the default course and to bio200 come first; the first event is cs101's.
            try await server.postLocation(as: ada)
            try await server.postLocation(as: ada, path: "/c/bio200/v1/StudentLocation")
            let writer = transport.client(port: port).course("cs101")
            try await writer.logIn(email: ada.email, password: ada.password)
            let posted = try await writer.post(Self.somewhere)
            guard case .created(let created)? = try await updates.next() else { throw TestFailure("no created event") }
            #expect(created.objectId == posted.objectId)
        }
    }

    @Test(arguments: KitTransport.allCases)
    func strangersAndUnknownCoursesGetTheirOwnErrors(transport: KitTransport) async throws {
        try await KitSuite.live { server, port in
            let teacher = try await server.signUp()
            let stranger = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher)
            let cs101 = transport.client(port: port).course("cs101")

            #expect(await kindThrown { try await cs101.latest() }?.kind == .notLoggedIn)
            let login = await kindThrown { try await cs101.logIn(email: stranger.email, password: stranger.password) }
            #expect(login?.kind == .notACourseMember && login?.status == 403, "\(String(describing: login))")
            #expect(try await cs101.currentSession() == nil, "no session is made")

            // Logged in at the root, the stranger still may not read cs101's map or its stream.
            try await cs101.course(nil).logIn(email: stranger.email, password: stranger.password)
            let read = await kindThrown { try await cs101.latest() }
            #expect(read?.kind == .notACourseMember && read?.status == 403 && read?.code == 119)
            #expect(await kindThrown { try await cs101.post(Self.somewhere) }?.kind == .notACourseMember)
            #expect(await kindThrown { try await cs101.courseDetails() }?.kind == .notACourseMember)
            #expect(await kindThrown { try await Self.firstUpdate(of: cs101) }?.kind == .notACourseMember)

            let nowhere = cs101.course("no-such-course")
            let missing = await kindThrown { try await nowhere.latest() }
            #expect(missing?.kind == .courseNotFound && missing?.status == 404 && missing?.code == 101)
            #expect(await kindThrown { try await nowhere.logIn(email: stranger.email, password: stranger.password) }?.kind == .courseNotFound)
            #expect(await kindThrown { try await Self.firstUpdate(of: nowhere) }?.kind == .courseNotFound)
            #expect(await kindThrown { try await cs101.course("Not A/Slug").me() }?.kind == .courseNotFound, "escaped, not another path")
            // A pin that is not there is still just that.
            #expect(await kindThrown { try await cs101.course(nil).location(id: "noSuchPin0") }?.kind == .notFound)
        }
    }

    @Test(arguments: KitTransport.allCases)
    func aStudentJoinsWithTheInviteLinkOnce(transport: KitTransport) async throws {
        try await KitSuite.live { server, port in
            let instructor = transport.client(port: port)
            try await instructor.signUp(email: freshEmail(), password: "correct horse battery", firstName: "Tess", lastName: "Teacher")
            let made = try await instructor.createCourse(slug: "cs101", title: "CS 101", visibility: .members)
            #expect(made.slug == "cs101" && made.title == "CS 101" && made.role == .instructor && made.invite?.isEnabled == false)
            #expect(made.visibility == .members && !made.isArchived && abs(made.createdAt.timeIntervalSinceNow) < 300)
            #expect(try await instructor.myCourses().map { [$0.slug, $0.role?.rawValue ?? "-"] } == [["default", "student"], ["cs101", "instructor"]])
            let taken = await kindThrown { try await instructor.createCourse(slug: "cs101", title: "Again") }
            #expect(taken?.kind == .courseSlugTaken && taken?.parameter == "slug")
            #expect(await kindThrown { try await instructor.createCourse(slug: "CS 101", title: "Bad") }?.kind == .invalid)

            let session = try #require(try await instructor.currentSession())
            let on = try await server.send(.post, "/c/cs101/v1/course/invite", body: #"{"enabled": true}"#,
                                           headers: [.authorization: "Bearer \(session.id)"])
            #expect(on.status == .ok)
            let link = try #require(try await instructor.course("cs101").courseDetails().invite?.link)
            #expect(link.absoluteString.hasPrefix("http://127.0.0.1:\(port)/c/cs101/join/"), "made absolute: \(link)")
            let invite = try #require(InviteLink(link))

            let student = transport.client(port: port)
            try await student.signUp(email: freshEmail(), password: "correct horse battery", firstName: "Ada", lastName: "Lovelace")
            let wrong = await kindThrown { try await student.join(InviteLink(slug: "cs101", token: "AAAAAAAAAAAAAAAAAAAAAA")) }
            #expect(wrong?.kind == .inviteNotValid && wrong?.status == 403)
            #expect(await kindThrown { try await student.join(InviteLink(slug: "nope", token: invite.token)) }?.kind == .courseNotFound)

            let joined = try await student.join(invite)
            guard case .joined(let course) = joined else { throw TestFailure("not joined: \(joined)") }
            #expect(course.slug == "cs101" && course.role == .student && course.invite == nil)
            #expect(try await student.course("cs101").join(token: invite.token) == .alreadyMember(course))
            #expect(try await student.course("cs101").latest().isEmpty)
        }
    }

    @Test(arguments: KitTransport.allCases)
    func aPinWaitingForApprovalIsShownToItsStudentMarkedSo(transport: KitTransport) async throws {
        try await KitSuite.live { server, port in
            let teacher = try await server.signUp(first: "Tess", last: "Teacher"), ada = try await server.signUp(first: "Ada", last: "Lovelace")
            var course = try await server.makeCourse("cs101", instructor: teacher, students: [ada])
            course.approvalRequired = true
            try await server.store.updateCourse(course)
            let cs101 = transport.client(port: port).course("cs101")
            try await cs101.logIn(email: ada.email, password: ada.password)
            let posted = try await cs101.post(Self.somewhere)
            let me = try await cs101.me()
            #expect(me.location?.objectId == posted.objectId && me.locationAwaitingApproval && !me.locationHidden)
            #expect(try await cs101.latest().isEmpty, "the class sees it once an instructor approves it")
        }
    }
}
}
