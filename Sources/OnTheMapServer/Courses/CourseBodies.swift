import OnTheMapModel
import OnTheMapStore

/// A course as the API shows it: to its instructors and the server's admins with its invite link.
struct CourseBody: Encodable {
    struct InviteBody: Encodable {
        let enabled: Bool
        /// Absolute from `--public-url`, else a path.
        let url: String
    }

    let slug: String
    let title: String
    /// The course's base path, which apps put at the end of their base URL.
    let path: String
    let visibility: String
    let namesShown: String
    let approvalRequired: Bool
    let archived: Bool
    let createdAt: String
    /// The caller's role in it; null when not a member.
    let role: Nullable<String>
    /// Null unless the caller teaches it or is an admin.
    let invite: Nullable<InviteBody>
    /// Whether posting a pin is graded in the linked learning platforms' grade books; null unless
    /// the caller teaches it and a linked platform course offers its grade book (and in lists).
    var gradePosting: Nullable<Bool> = Nullable(nil)

    init(_ course: Course, role: CourseRole?, invite: InviteBody?) {
        slug = course.slug.rawValue
        title = course.title
        path = CourseMount.path(of: course.slug) + "/"
        visibility = course.visibility.rawValue
        namesShown = course.namesShown.rawValue
        approvalRequired = course.approvalRequired
        archived = course.isArchived
        createdAt = WireTime.formatMillis(course.createdAt)
        self.role = Nullable(role?.rawValue)
        self.invite = Nullable(invite)
    }
}

/// A course's roster: its members with their pin in it, and the emails waiting for an account.
struct RosterBody: Encodable {
    struct MemberBody: Encodable {
        let key: String
        let email: String
        let firstName: String
        let lastName: String
        let role: String
        let joinedAt: String
        let location: Nullable<AdminPinBody>
        /// The IANA time zone of the pin's place (its nearest town's); null without a pin, or one
        /// far from any town.
        let timeZone: Nullable<String>
    }

    struct WaitingBody: Encodable {
        let email: String
        let role: String
        let addedAt: String
    }

    /// People a linked learning platform lists for the course who have not opened its map yet
    /// (`LTIRoster`); null when no linked platform course offers its member list.
    struct PlatformBody: Encodable {
        struct PersonBody: Encodable {
            let name: String
            let email: Nullable<String>
            let role: String
            let platform: String
        }

        let notYetHere: [PersonBody]
        /// The platforms whose list could not be read just now.
        let unavailable: [String]

        init(_ listed: LTIRoster.Listed) {
            notYetHere = listed.people.map {
                PersonBody(name: $0.name, email: Nullable($0.email), role: ($0.teaches ? CourseRole.instructor : .student).rawValue, platform: $0.platform)
            }
            unavailable = listed.unavailable
        }
    }

    let results: [MemberBody]
    let waiting: [WaitingBody]
    var platform: Nullable<PlatformBody> = Nullable(nil)

    init(_ members: [CourseMember], waiting: [PendingMember], timeZone: (OwnedLocation) -> String?) {
        results = members.map {
            MemberBody(
                key: $0.account.key, email: $0.account.email, firstName: $0.account.firstName, lastName: $0.account.lastName, role: $0.role.rawValue,
                joinedAt: WireTime.formatMillis($0.joinedAt), location: Nullable($0.pin.map(AdminPinBody.init)),
                timeZone: Nullable($0.pin.flatMap(timeZone)))
        }
        self.waiting = waiting.map { WaitingBody(email: $0.email, role: $0.role.rawValue, addedAt: WireTime.formatMillis($0.addedAt)) }
    }
}

/// What adding a class list came to, email by email.
struct AdditionsBody: Encodable {
    let added: [String]
    let alreadyMembers: [String]
    let waiting: [String]
    /// Lines of the list with no email in them.
    let unreadable: [String]

    init(_ additions: [CourseService.Addition], unreadable: [String]) {
        var added: [String] = [], members: [String] = [], waiting: [String] = []
        for addition in additions {
            switch addition {
            case .added(let account): added.append(account.email)
            case .alreadyMember(let account): members.append(account.email)
            case .waiting(let email): waiting.append(email)
            }
        }
        self.added = added
        alreadyMembers = members
        self.waiting = waiting
        self.unreadable = unreadable
    }
}
