import OnTheMapModel
import OnTheMapStore

/// Who may do what to a course: the one place the rules live (docs/API.md, "Courses"). Every
/// operation a course serves names what it does (`APIOperation.courseAction`), and its route group
/// checks that here before the handler runs.
///
/// - Reading: anyone, when the course is readable by anyone (the default course; one whose
///   instructor chose `link`); otherwise its members and the server's admins (401 without a session,
///   403 for another account).
/// - Writing a pin: its members and the server's admins, while it is not archived. In the legacy
///   `open` mode the default course takes anyone's writes, as the original service did.
/// - Teaching (its settings, invite link and roster): its instructors and the server's admins.
/// - In a course everyone joins (the default one), every account counts as a member, whether or
///   not its membership was written (an account made by an instance of the release before courses).
struct CourseAccess: Sendable {
    let writeMode: WriteMode
    let store: any CourseStore

    enum Action: Sendable {
        case read
        case write
        case teach
    }

    /// Throws the refusal of `action` on `course` for the request's caller, looked up only when
    /// the answer depends on who asks. A nil `course` is the default course at today's paths,
    /// which never needs reading (it cannot be archived, and anyone may read it).
    func check(_ action: Action, on course: Course?, caller: () async throws -> Caller?) async throws {
        try await check(action, on: course) { try await caller().map { ($0.account, $0.courseRole) } }
    }

    /// Whether `account` may do `action` to the pins of course `id` (a request about a pin,
    /// away from its course's path).
    func may(_ action: Action, pinOf id: CourseID, account: Account) async throws -> Bool {
        guard id != .default else { return true }
        guard let course = try await store.course(id: id) else { return false }
        return try await may(action, on: course, account: account)
    }

    /// Whether `account` (nil: nobody logged in) may do `action` to `course` as it is now; its
    /// role there is read only when it matters.
    func may(_ action: Action, on course: Course, account: Account?) async throws -> Bool {
        do {
            try await check(action, on: course) {
                guard let account else { return nil }
                return (account, try await store.role(of: account.key, in: course.id))
            }
            return true
        } catch let refusal as APIError where refusal.status == 401 || refusal.status == 403 {
            return false
        }
    }

    /// The rules, for a `member`: the account asking and its role in the course, read only when needed.
    private func check(_ action: Action, on course: Course?, member: () async throws -> (Account, CourseRole?)?) async throws {
        switch action {
        case .read:
            if course?.isReadableByAnyone ?? true { return }
            try requireMember(try await member(), everyoneJoins: course?.everyoneJoins ?? true)
        case .write:
            if course?.isArchived ?? false { throw APIError.courseArchived }
            let member = try await member()
            if writeMode == .open, (course?.id ?? .default) == .default { return }
            try requireMember(member, everyoneJoins: course?.everyoneJoins ?? true)
        case .teach:
            guard let member = try await member() else { throw APIError.loginRequired }
            guard member.0.isAdmin || member.1 == .instructor else { throw APIError.instructorsOnly }
        }
    }

    /// Throws unless `account`, who has just proved who they are, may log in at `course`'s paths:
    /// a session made there is for using that course, so a stranger to it is told before a
    /// session is made. Anyone may log in at today's paths (nil).
    func checkLogIn(_ account: Account, at course: Course?) async throws {
        guard let course, !account.isAdmin, !course.everyoneJoins else { return }
        if try await store.role(of: account.key, in: course.id) == nil { throw APIError.notACourseMember }
    }

    private func requireMember(_ member: (account: Account, role: CourseRole?)?, everyoneJoins: Bool) throws {
        guard let member else { throw APIError.loginRequired }
        guard member.account.isAdmin || member.role != nil || everyoneJoins else { throw APIError.notACourseMember }
    }
}
