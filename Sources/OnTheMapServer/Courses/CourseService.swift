import OnTheMapModel
import OnTheMapStore

/// What can be done to a course, with its rules (a slug is a slug and one course's, a title fits,
/// the default course stays, a course keeps an instructor, an invite must be the live one),
/// independent of any wire shape: the course routes and `onthemap course` both go through it. Who
/// may ask is decided before, by `CourseAccess` (the operator's CLI may do everything). Every change
/// of a course goes into the audit log, in the course, naming who made it (`actor`; nil for the
/// operator at the shell).
public struct CourseService: Sendable {
    let store: any CourseStore & AccountStore & LocationStore
    let invites: CourseInvite
    let clock: WallClock
    /// Told of every course changed here, so that this instance sees the change at once.
    let changed: @Sendable (CourseSlug) -> Void

    public init(store: any CourseStore & AccountStore & LocationStore, secret: ServerSecret, clock: WallClock = .system) {
        self.init(store: store, invites: CourseInvite(secret: secret), clock: clock, changed: { _ in })
    }

    init(store: any CourseStore & AccountStore & LocationStore, invites: CourseInvite, clock: WallClock, changed: @escaping @Sendable (CourseSlug) -> Void) {
        self.store = store
        self.invites = invites
        self.clock = clock
        self.changed = changed
    }

    /// A new course, `instructor` its first instructor.
    public func create(slug rawSlug: String, title rawTitle: String, instructor: Account, by actor: Account?) async throws -> Course {
        guard let slug = CourseSlug(rawValue: rawSlug) else { throw APIError.invalidCourseSlug }
        let title = try Course.title(rawTitle)
        do {
            let entry = audit(.createCourse, slug, by: actor, detail: "\(title), taught by \(instructor.email)", course: nil)
            let course = try await store.createCourse(slug: slug, title: title, instructorKey: instructor.key, now: clock.nowMillis(), audit: entry)
            changed(slug)
            return course
        } catch StoreError.slugTaken {
            throw APIError.courseSlugTaken
        }
    }

    /// The course a slug names, or 404.
    public func course(_ rawSlug: String) async throws -> Course {
        guard let slug = CourseSlug(rawValue: rawSlug), let course = try await store.course(slug: slug) else { throw APIError.courseNotFound }
        return course
    }

    public func allCourses() async throws -> [Course] { try await store.allCourses() }

    /// What a course's settings become: each given one changed, the rest kept.
    public struct Settings: Sendable {
        public var title: String?
        public var visibility: Course.Visibility?
        public var namesShown: Course.NamesShown?
        public var approvalRequired: Bool?
        public var archived: Bool?

        public init(
            title: String? = nil, visibility: Course.Visibility? = nil, namesShown: Course.NamesShown? = nil, approvalRequired: Bool? = nil,
            archived: Bool? = nil
        ) {
            self.title = title
            self.visibility = visibility
            self.namesShown = namesShown
            self.approvalRequired = approvalRequired
            self.archived = archived
        }
    }

    /// Changes the course's settings; the default course is never archived.
    public func change(_ course: Course, to settings: Settings, by actor: Account?) async throws -> Course {
        var changed = course
        if let title = settings.title { changed.title = try Course.title(title) }
        if let visibility = settings.visibility { changed.visibility = visibility }
        if let namesShown = settings.namesShown { changed.namesShown = namesShown }
        if let approvalRequired = settings.approvalRequired {
            // The default course's pins show at once: its old apps know nothing of waiting.
            if approvalRequired, course.id == .default {
                throw APIError.validation("approvalRequired", "The default course shows every pin at once; approval is for a course of its own.")
            }
            // Turning it off approves nothing: pins that wait go on waiting for an instructor.
            changed.approvalRequired = approvalRequired
        }
        if let archived = settings.archived, archived != course.isArchived {
            if course.id == .default { throw APIError.defaultCourseStays }
            changed.archivedAt = archived ? clock.nowMillis() : nil
        }
        guard changed != course else { return course }
        try await store.updateCourse(changed, audit: audit(.changeCourse, course.slug, by: actor, detail: Self.describe(from: course, to: changed), course: course.id))
        self.changed(course.slug)
        return changed
    }

    /// Deletes the course with its pins, once `confirmation` names it (its slug, exactly).
    public func delete(_ course: Course, confirmation: String, by actor: Account?) async throws {
        if course.id == .default { throw APIError.defaultCourseStays }
        guard confirmation == course.slug.rawValue else { throw APIError.deletionNotConfirmed }
        let entry = audit(.deleteCourse, course.slug, by: actor, detail: "\(course.title), with its pins", course: course.id)
        guard try await store.deleteCourse(course.id, audit: entry) else { throw APIError.courseNotFound }
        changed(course.slug)
    }

    /// The course's invite link's path, whether or not it works now.
    public func invitePath(for course: Course) -> String { invites.path(for: course) }

    /// Switches the invite link on or off, or makes a new one (which switches it on).
    public func setInvite(of course: Course, enabled: Bool, turnOver: Bool = false, by actor: Account?) async throws -> Course {
        let detail = turnOver ? "a new invite link (the old one stops working)" : enabled ? "invite link on" : "invite link off"
        let entry = audit(.changeInvite, course.slug, by: actor, detail: detail, course: course.id)
        guard let changed = try await store.setInvite(of: course.id, enabled: enabled || turnOver, turnOver: turnOver, audit: entry) else {
            throw APIError.courseNotFound
        }
        self.changed(course.slug)
        return changed
    }

    /// `account` joins the course with its invite `token`; false when it was a member already
    /// (its role kept).
    public func join(_ course: Course, token: String, account: Account) async throws -> Bool {
        guard invites.admits(token, to: course) else { throw APIError.inviteNotValid }
        if try await store.role(of: account.key, in: course.id) != nil { return false }
        return try await store.setMember(account.key, of: course.id, role: .student, now: clock.nowMillis())
    }

    /// What adding one email of a class list came to.
    public enum Addition: Sendable, Equatable {
        /// The account became a member in the role.
        case added(Account)
        /// The account was a member already: made an instructor when that was asked, else as it was.
        case alreadyMember(Account)
        /// No account has the email yet: it joins when one is made.
        case waiting(String)
    }

    /// Adds every email of a class list in `role`: accounts join now, the other emails when their
    /// account is made. A list of instructors makes its members instructors; a list of students
    /// never makes an instructor a student (an instructor pastes the whole class, themselves too).
    public func add(_ list: ClassList, as role: CourseRole, to course: Course, by actor: Account?) async throws -> [Addition] {
        let now = clock.nowMillis()
        var additions: [Addition] = []
        for email in list.emails {
            if let account = try await store.account(email: email) {
                let was = try await store.role(of: account.key, in: course.id)
                if was == nil || role == .instructor { try await store.setMember(account.key, of: course.id, role: role, now: now) }
                additions.append(was == nil ? .added(account) : .alreadyMember(account))
            } else {
                try await store.addPendingMember(email: email, to: course.id, role: role, now: now)
                additions.append(.waiting(email))
            }
        }
        // One entry for the list, after it: its emails are many writes, each one complete.
        let counts = (added: additions.filter { if case .added = $0 { true } else { false } }.count,
                      waiting: additions.filter { if case .waiting = $0 { true } else { false } }.count)
        let detail = "\(role.rawValue)s: \(counts.added) added, \(counts.waiting) joining when they sign up, "
            + "\(additions.count - counts.added - counts.waiting) already members"
        try await store.record(audit(.addMembers, course.slug, by: actor, detail: detail, course: course.id))
        return additions
    }

    /// Takes the member with `email` out of the course, or forgets the email waiting to join;
    /// false when it was neither.
    public func remove(email rawEmail: String, from course: Course, by actor: Account?) async throws -> Bool {
        let email = Validation.normalizedEmail(rawEmail)
        guard let account = try await store.account(email: email) else {
            guard try await store.removePendingMember(email: email, from: course.id) else { return false }
            try await store.record(audit(.removeMember, course.slug, by: actor, detail: "\(email), who had not signed up", course: course.id))
            return true
        }
        return try await remove(key: account.key, from: course, by: actor)
    }

    /// Takes the account out of the course, and its pin off the course's map (announced as a
    /// deletion); false when it was not a member.
    public func remove(key: String, from course: Course, by actor: Account?) async throws -> Bool {
        do {
            guard try await store.removeMember(key, from: course.id) else { return false }
        } catch StoreError.lastInstructor {
            throw APIError.lastInstructor
        }
        let pin = try await store.location(ownerKey: key, in: course.id)
        if let pin { _ = try await store.deleteLocation(objectId: pin.location.objectId, in: course.id) }
        let who = try await store.account(key: key)?.email ?? key
        try await store.record(audit(.removeMember, course.slug, by: actor, detail: pin == nil ? who : "\(who), with their pin", course: course.id))
        return true
    }

    /// Who made a change, in the log: the account, or the operator at the shell.
    static let operatorName = "the server's operator (onthemap course)"

    /// A course change's entry; `course` nil for one whose id the write finds (a new course).
    private func audit(_ action: AuditEntry.Action, _ slug: CourseSlug, by actor: Account?, detail: String, course: CourseID?) -> AuditEntry {
        AuditEntry(
            at: clock.nowMillis(), actorKey: actor?.key, actorEmail: actor?.email ?? Self.operatorName, action: action, target: slug.rawValue,
            detail: detail, course: course)
    }

    /// "visibility: link; names: initials; archived": what a change of settings changed.
    static func describe(from old: Course, to new: Course) -> String {
        var parts: [String] = []
        if old.title != new.title { parts.append("title: \(new.title)") }
        if old.visibility != new.visibility { parts.append("visibility: \(new.visibility.rawValue)") }
        if old.namesShown != new.namesShown { parts.append("names: \(new.namesShown.rawValue)") }
        if old.approvalRequired != new.approvalRequired { parts.append(new.approvalRequired ? "instructors approve each pin" : "pins show at once") }
        if old.isArchived != new.isArchived { parts.append(new.isArchived ? "archived" : "no longer archived") }
        return parts.joined(separator: "; ")
    }

    /// A page of the course's roster.
    public func roster(of course: Course, limit: Int = 1000, skip: Int = 0) async throws -> [CourseMember] {
        try await store.members(of: course.id, limit: limit, skip: skip)
    }

    public func waiting(for course: Course) async throws -> [PendingMember] {
        try await store.pendingMembers(of: course.id)
    }
}
