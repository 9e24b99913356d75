import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// Courses and their members as the store keeps them, on both engines: a course made with its
/// first instructor in one write, a slug taken once, settings written back whole, roles set and
/// read, and a session's role in the course it is asked about read with the session.
@Suite struct CourseStoreTests {
    @Test func aCourseIsMadeWithItsInstructorAndFoundBySlugAndId() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let teacher = try await store.newAccount("Teacher"), student = try await store.newAccount("Student")
            let slug = try #require(CourseSlug(rawValue: "cs101-spring"))
            let course = try await store.createCourse(slug: slug, title: "CS101, spring", instructorKey: teacher.key, now: 5_000)
            #expect(course.id != .default && course.title == "CS101, spring" && course.createdAt == 5_000)
            #expect(course.visibility == .members && course.namesShown == .full && !course.isArchived && !course.everyoneJoins)
            #expect(try await store.course(slug: slug) == course)
            #expect(try await store.course(id: course.id) == course)
            #expect(try await store.role(of: teacher.key, in: course.id) == .instructor)
            #expect(try await store.role(of: student.key, in: course.id) == nil)
            #expect(try await store.role(of: student.key, in: .default) == .student, "a new account joins the default course")

            // A slug is one course's: the second is refused and leaves nothing behind.
            await #expect(throws: StoreError.slugTaken) {
                try await store.createCourse(slug: slug, title: "Another", instructorKey: student.key, now: 6_000)
            }
            #expect(try await store.role(of: student.key, in: course.id) == nil)
            let defaultCourse = try #require(try await store.course(id: .default))
            #expect(defaultCourse.slug.rawValue == "default" && defaultCourse.everyoneJoins)
            try await database.close()
        }
    }

    @Test func settingsAndRolesAreWrittenAndReadBack() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let teacher = try await store.newAccount("Teacher"), student = try await store.newAccount("Student")
            var course = try await store.createCourse(
                slug: try #require(CourseSlug(rawValue: "art")), title: "Art", instructorKey: teacher.key, now: 1)
            course.title = "Art history"
            course.archivedAt = 9
            course.visibility = .link
            course.namesShown = .initials
            course.approvalRequired = true
            try await store.updateCourse(course)
            #expect(try await store.course(id: course.id) == course)

            // The invite link: on, turned over (a new one), off; the settings are left alone.
            let turnedOver = try #require(try await store.setInvite(of: course.id, enabled: true, turnOver: true))
            #expect(turnedOver.inviteEnabled && turnedOver.inviteGeneration == 1 && turnedOver.title == "Art history")
            let off = try #require(try await store.setInvite(of: course.id, enabled: false, turnOver: false))
            #expect(!off.inviteEnabled && off.inviteGeneration == 1)
            #expect(try await store.setInvite(of: CourseID(rawValue: 999), enabled: true, turnOver: true) == nil)

            #expect(try await store.setMember(student.key, of: course.id, role: .student, now: 2))
            #expect(try await store.setMember(student.key, of: course.id, role: .student, now: 3) == false, "already theirs")
            #expect(try await store.setMember(student.key, of: course.id, role: .instructor, now: 4))
            #expect(try await store.role(of: student.key, in: course.id) == .instructor)

            // The role comes with the session, for the course asked about.
            try await store.insertSession(SessionRecord(tokenHash: "t", accountKey: teacher.key, createdAt: 1, expiresAt: 100))
            #expect(try await store.session(tokenHash: "t", now: 2, in: course.id)?.courseRole == .instructor)
            #expect(try await store.session(tokenHash: "t", now: 2, in: .default)?.courseRole == .student)
            #expect(try await store.session(tokenHash: "t", now: 2, in: CourseID(rawValue: 999))?.courseRole == nil)
            try await database.close()
        }
    }

    @Test func aCourseKeepsAnInstructorAndItsRosterShowsWhoPosted() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let teacher = try await store.newAccount("Teacher"), student = try await store.newAccount("Student")
            let course = try await store.createCourse(
                slug: try #require(CourseSlug(rawValue: "geo")), title: "Geo", instructorKey: teacher.key, now: 1)
            try await store.setMember(student.key, of: course.id, role: .student, now: 2)

            // The only instructor can neither leave nor stop teaching; with a second one, they can.
            await #expect(throws: StoreError.lastInstructor) { try await store.removeMember(teacher.key, from: course.id) }
            await #expect(throws: StoreError.lastInstructor) { try await store.setMember(teacher.key, of: course.id, role: .student, now: 3) }
            #expect(try await store.role(of: teacher.key, in: course.id) == .instructor)
            try await store.setMember(student.key, of: course.id, role: .instructor, now: 4)
            #expect(try await store.setMember(teacher.key, of: course.id, role: .student, now: 5))
            #expect(try await store.removeMember(teacher.key, from: course.id))
            #expect(try await store.removeMember(teacher.key, from: course.id) == false, "not a member any more")

            // The roster: instructors first, each with their pin in this course only.
            try await store.setMember(teacher.key, of: course.id, role: .student, now: 6)
            try await store.pin(teacher, at: "Oslo", in: course.id)
            try await store.pin(student, at: "Elsewhere", in: .default)
            let roster = try await store.members(of: course.id, limit: 10, skip: 0)
            #expect(roster.map(\.account.key) == [student.key, teacher.key])
            #expect(roster.map(\.role) == [.instructor, .student])
            #expect(roster.map { $0.pin?.location.mapString } == [nil, "Oslo"])
            #expect(try await store.members(of: course.id, limit: 1, skip: 1).map(\.account.key) == [teacher.key])

            #expect(try await store.courses(of: teacher.key).map { [$0.course.slug.rawValue, $0.role.rawValue] } == [["default", "student"], ["geo", "student"]])
            #expect(try await store.allCourses().map(\.slug.rawValue) == ["default", "geo"])
            try await database.close()
        }
    }

    @Test func aClassListsStudentJoinsWhenTheirAccountIsMade() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let teacher = try await store.newAccount("Teacher")
            let course = try await store.createCourse(
                slug: try #require(CourseSlug(rawValue: "geo")), title: "Geo", instructorKey: teacher.key, now: 1)
            #expect(try await store.addPendingMember(email: "late@example.com", to: course.id, role: .student, now: 2))
            #expect(try await store.addPendingMember(email: "late@example.com", to: course.id, role: .student, now: 3) == false)
            #expect(try await store.addPendingMember(email: "ta@example.com", to: course.id, role: .instructor, now: 4))
            #expect(try await store.addPendingMember(email: "gone@example.com", to: course.id, role: .student, now: 4))
            #expect(try await store.removePendingMember(email: "gone@example.com", from: course.id))
            #expect(try await store.pendingMembers(of: course.id) == [
                PendingMember(email: "late@example.com", role: .student, addedAt: 2), PendingMember(email: "ta@example.com", role: .instructor, addedAt: 4),
            ])

            let late = try await store.createAccount(email: "late@example.com", firstName: "Late", lastName: "Comer", passwordHash: "h", isAdmin: false)
            let ta = try await store.createAccount(email: "ta@example.com", firstName: "Tea", lastName: "Cher", passwordHash: "h", isAdmin: false)
            #expect(try await store.role(of: late.key, in: course.id) == .student)
            #expect(try await store.role(of: ta.key, in: course.id) == .instructor)
            #expect(try await store.role(of: ta.key, in: .default) == .student, "and every course everyone joins")
            #expect(try await store.pendingMembers(of: course.id).isEmpty)
            try await database.close()
        }
    }

    @Test func aDeletedCourseTakesItsPinsReportsEventsAndMembersAndNothingElse() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let teacher = try await store.newAccount("Teacher"), student = try await store.newAccount("Student")
            let gone = try await store.createCourse(slug: try #require(CourseSlug(rawValue: "gone")), title: "Gone", instructorKey: teacher.key, now: 1)
            let kept = try await store.createCourse(slug: try #require(CourseSlug(rawValue: "kept")), title: "Kept", instructorKey: teacher.key, now: 1)
            for course in [gone.id, kept.id, .default] {
                try await store.setMember(student.key, of: course, role: .student, now: 2)
                let pin = try await store.pin(student, at: "Somewhere", in: course)
                _ = try await store.insertReport(objectId: pin.objectId, in: course, reporterKey: teacher.key, reason: .spam, now: 3)
            }
            try await store.addPendingMember(email: "late@example.com", to: gone.id, role: .student, now: 4)
            try await store.waitUntilEventsAreFinal()

            #expect(try await store.deleteCourse(gone.id))
            #expect(try await store.deleteCourse(gone.id) == false)
            #expect(try await store.course(id: gone.id) == nil)
            #expect(try await store.role(of: student.key, in: gone.id) == nil)
            #expect(try await store.pendingMembers(of: gone.id).isEmpty)
            #expect(try await store.reports(openOnly: false, limit: 10, in: gone.id).isEmpty)
            #expect(try await store.locationEvents(after: 0, limit: 10).map(\.course).contains(gone.id) == false)
            // The other courses keep everything.
            for course in [kept.id, .default] {
                #expect(try await store.locations(LocationQuery(limit: 10), in: course).results.count == 1)
                #expect(try await store.reports(openOnly: false, limit: 10, in: course).count == 1)
                #expect(try await store.role(of: student.key, in: course) == .student)
            }
            try await database.close()
        }
    }

    /// An import goes to its course, and links a pin to its account when the account has none in
    /// that course, whatever it has in others.
    @Test func anImportGoesToItsCourse() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let teacher = try await store.newAccount("Teacher"), student = try await store.newAccount("Student")
            let course = try await store.createCourse(slug: try #require(CourseSlug(rawValue: "geo")), title: "Geo", instructorKey: teacher.key, now: 1)
            try await store.pin(student, at: "Home", in: .default)
            let imported = StudentLocation(
                objectId: "imported01", uniqueKey: student.key, firstName: "S", lastName: "T", mapString: "Oslo", mediaURL: "https://example.com",
                latitude: 59.9, longitude: 10.7, createdAt: 5, updatedAt: 6)
            #expect(try await store.importLocations([imported], into: course.id) == 1, "linked: no pin of theirs in this course")
            #expect(try await store.location(objectId: "imported01")?.course == course.id)
            #expect(try await store.location(ownerKey: student.key, in: course.id)?.location.objectId == "imported01")
            #expect(try await store.locations(LocationQuery(limit: 10), in: .default).results.map(\.mapString) == ["Home"])
            try await database.close()
        }
    }

    @Test(arguments: ["cs101", "a1", "cs-101-spring", String(repeating: "x", count: 48)])
    func slugsThatAreSlugs(_ text: String) {
        #expect(CourseSlug(rawValue: text)?.rawValue == text)
    }

    @Test(arguments: ["", "a", "CS101", "cs_101", "-cs", "cs-", "cs--101", "cs 101", "çs101", "cs/101", String(repeating: "x", count: 49)])
    func textThatIsNoSlug(_ text: String) {
        #expect(CourseSlug(rawValue: text) == nil)
    }
}
