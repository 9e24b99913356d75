import OnTheMapModel
@testable import OnTheMapPostgres
import Testing

/// What instances tell each other on PostgreSQL: the courses whose pins changed, read back as
/// such by the others; their own notifications skipped; a notification from an instance of the
/// release before courses (its id alone), one naming too many courses, or one that cannot be
/// read, as a change of unknown course, which empties every course's cached list.
@Suite struct ChangeChannelTests {
    let me = ChangeChannel(schema: nil, instanceID: "me"), other = ChangeChannel(schema: nil, instanceID: "other")
    let one = CourseID(rawValue: 1), seven = CourseID(rawValue: 7)

    @Test func theCoursesNamedAreTheCoursesChanged() {
        let payload = other.payload(courses: [seven, one])
        #expect(payload == "other 1,7")
        #expect(me.changes(announcedBy: payload) == [.elsewhere(in: one), .elsewhere(in: seven)])
        #expect(other.changes(announcedBy: payload).isEmpty, "an instance's own notification is skipped")
    }

    @Test func aNotificationWithoutCoursesIsEveryCourse() {
        #expect(me.changes(announcedBy: "other") == [.unknown], "as the release before courses sends")
        #expect(other.payload(courses: nil) == "other")
        let many = Set((1...Int64(ChangeChannel.maxCoursesNamed + 1)).map(CourseID.init(rawValue:)))
        #expect(other.payload(courses: many) == "other")
        #expect(me.changes(announcedBy: "other 1,x") == [.unknown])
        #expect(me.changes(announcedBy: "me") == [])
    }

    /// Sessions changed on another instance: the accounts named, or every account; no location
    /// change, and nothing from this instance's own.
    @Test func aSessionsNotificationNamesItsAccountsAndNoPin() {
        let payload = other.sessionsPayload(accounts: ["20000002", "10000001"])
        #expect(payload == "other sessions 10000001,20000002")
        #expect(me.sessionsChanged(announcedBy: payload) == .some(["10000001", "20000002"]))
        #expect(me.changes(announcedBy: payload).isEmpty)
        #expect(other.sessionsChanged(announcedBy: payload) == nil, "an instance's own notification is skipped")
        #expect(me.sessionsChanged(announcedBy: other.sessionsPayload(accounts: nil)) == .some(nil))
        #expect(me.changes(announcedBy: other.sessionsPayload(accounts: nil)).isEmpty)
        #expect(me.sessionsChanged(announcedBy: other.payload(courses: [one])) == nil, "a location change says nothing of sessions")
    }

    @Test func theAnnouncerCoversTheCoursesOfItsWrites() {
        let pin = StudentLocation(objectId: "a", uniqueKey: "u", firstName: "F", lastName: "L", mapString: "M", mediaURL: "",
                                  latitude: 0, longitude: 0, createdAt: 0, updatedAt: 0)
        #expect(CommitAnnouncer.courses(of: [.created(pin, in: one), .deleted(objectId: "b", in: seven)]) == [one, seven])
        #expect(CommitAnnouncer.courses(of: [.created(pin, in: one), .rewritten]) == nil)
    }
}
