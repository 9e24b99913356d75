import Hummingbird
import OnTheMapModel
import OnTheMapGeocoder
import OnTheMapStore

/// A course's own operations (docs/API.md, "Courses"): `/v1/course…` under each course's path
/// (the default course's at the root), and `/v1/courses` at the root, a caller's courses and a
/// new one. Who may is `CourseAccess`'s, checked by the route group; the rules are `CourseService`'s.
struct CourseController: Sendable {
    let service: CourseService
    let store: any CourseStore
    /// Gives each member's pin its time zone in the roster (none while it loads).
    let geocoder: GeocoderState
    /// Invite links are absolute from `--public-url`, else paths.
    let publicURL: PublicURL?
    /// Who may start a course (`--course-creators`).
    let courseCreators: CourseCreators
    /// The linked learning platforms' class lists and grade books.
    let roster: LTIRoster
    let grades: LTIGrades

    /// The operations a course serves at its path.
    func addRoutes(to routes: FamilyGroup) {
        routes.add(.courseShow, show)
        routes.add(.courseChange, change)
        routes.add(.courseDelete, delete)
        routes.add(.courseInvite, invite)
        routes.add(.courseJoin, join)
        routes.add(.courseMembers, members)
        routes.add(.courseAddMembers, addMembers)
        routes.add(.courseRemoveMember, removeMember)
    }

    /// The operations about every course, at the root.
    func addRootRoutes(to routes: FamilyGroup) {
        routes.add(.myCourses, mine)
        routes.add(.createCourse, create)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let course = try await course(context)
        return try JSONResponse.make(try await withGrading(body(course, caller: try await context.caller()), of: course))
    }

    /// The course's body with its grading state (`LTIGrades`) for those who teach it.
    private func withGrading(_ body: CourseBody, of course: Course) async throws -> CourseBody {
        guard body.invite.value != nil else { return body }
        var graded = body
        graded.gradePosting = Nullable(try await grades.state(of: course.id))
        return graded
    }

    /// `{title, visibility, namesShown, approvalRequired, archived, gradePosting}`, any of them.
    /// Grading goes first: it is the part a learning platform can refuse.
    @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try CourseFields(
            try await RequestJSON.value(of: request), allowed: ["title", "visibility", "namesShown", "approvalRequired", "archived", "gradePosting"])
        if let graded = try fields.bool("gradePosting") { try await grades.setGrading(graded, course: try await course(context)) }
        let settings = CourseService.Settings(
            title: try fields.string("title"), visibility: try fields.choice("visibility", Course.Visibility.self),
            namesShown: try fields.choice("namesShown", Course.NamesShown.self), approvalRequired: try fields.bool("approvalRequired"),
            archived: try fields.bool("archived"))
        let changed = try await service.change(try await course(context), to: settings, by: try await context.caller()?.account)
        return try JSONResponse.make(try await withGrading(body(changed, caller: try await context.caller()), of: changed))
    }

    /// `?confirm={slug}`: the course goes, with its pins; its streams end with `reload`.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let confirmation = QueryString.parse(request.uri.query).first { $0.name == "confirm" }?.value ?? ""
        try await service.delete(try await course(context), confirmation: confirmation, by: try await context.caller()?.account)
        return try JSONResponse.make(EmptyCourseBody())
    }

    /// `{enabled}` switches the link on or off; `{new: true}` replaces it (and switches it on).
    @Sendable func invite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try CourseFields(try await RequestJSON.value(of: request), allowed: ["enabled", "new"])
        let course = try await self.course(context)
        let turnOver = try fields.bool("new") ?? false
        let changed = try await service.setInvite(
            of: course, enabled: try fields.bool("enabled") ?? course.inviteEnabled, turnOver: turnOver, by: try await context.caller()?.account)
        return try JSONResponse.make(body(changed, caller: try await context.caller()))
    }

    /// `{invite}`: the caller joins with the course's invite token; 201 when they joined, 200
    /// when they were a member already.
    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try await context.requireCaller()
        let fields = try CourseFields(try await RequestJSON.value(of: request), allowed: ["invite"], required: ["invite"])
        let course = try await self.course(context)
        let joined = try await service.join(course, token: try fields.string("invite") ?? "", account: caller.account)
        // At the course's path the caller's role came with their session; one who just joined is a student.
        return try JSONResponse.make(body(course, role: joined ? .student : caller.courseRole, caller: caller), status: joined ? .created : .ok)
    }

    @Sendable func members(_ request: Request, context: AppRequestContext) async throws -> Response {
        let course = try await self.course(context)
        let timeZone: @Sendable (OwnedLocation) -> String? = { [geocoder] pin in
            guard case .ready(let geocoder) = geocoder.current else { return nil }
            return geocoder.timeZone(near: pin.location.latitude, pin.location.longitude)
        }
        let members = try await self.roster.shownEmails(try await service.roster(of: course))
        var roster = RosterBody(members, waiting: try await service.waiting(for: course), timeZone: timeZone)
        roster.platform = Nullable(try await self.roster.notMembers(of: course.id).map(RosterBody.PlatformBody.init))
        return try JSONResponse.make(roster)
    }

    /// `{list, role}`: a class list as pasted (one student a line, any layout holding their email).
    @Sendable func addMembers(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try CourseFields(try await RequestJSON.value(of: request), allowed: ["list", "role"], required: ["list"])
        let list = ClassList(try fields.string("list") ?? "")
        guard !list.emails.isEmpty else { throw APIError.validation("list", "The list holds no email address.") }
        let additions = try await service.add(
            list, as: try fields.choice("role", CourseRole.self) ?? .student, to: try await course(context), by: try await context.caller()?.account)
        return try JSONResponse.make(AdditionsBody(additions, unreadable: list.unreadable))
    }

    /// `{member}` is an account's key, or the email of one waiting for an account.
    @Sendable func removeMember(_ request: Request, context: AppRequestContext) async throws -> Response {
        let member = context.parameters.get("member") ?? ""
        let course = try await self.course(context)
        let actor = try await context.caller()?.account
        let removed = member.contains("@")
            ? try await service.remove(email: member, from: course, by: actor) : try await service.remove(key: member, from: course, by: actor)
        guard removed else { throw APIError.notFound("No member of this course is \(member).") }
        return try JSONResponse.make(EmptyCourseBody())
    }

    /// The caller's courses; every course for an admin.
    @Sendable func mine(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try await context.requireCaller()
        var roles: [CourseID: CourseRole] = [:]
        var courses: [Course] = []
        for (course, role) in try await store.courses(of: caller.account.key) {
            roles[course.id] = role
            courses.append(course)
        }
        if caller.account.isAdmin { courses = try await store.allCourses() }
        var bodies: [CourseBody] = []
        for course in courses { bodies.append(body(course, role: roles[course.id], caller: caller)) }
        return try JSONResponse.make(CourseList(results: bodies, canCreate: mayCreate(caller)))
    }

    /// `{slug, title, visibility}`: the caller teaches the new course.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try await context.requireCaller()
        guard mayCreate(caller) else { throw APIError.forbidden("Only the server's admins start courses here; ask one to start yours.") }
        let fields = try CourseFields(try await RequestJSON.value(of: request), allowed: ["slug", "title", "visibility"], required: ["slug", "title"])
        let visibility = try fields.choice("visibility", Course.Visibility.self)
        var course = try await service.create(
            slug: try fields.string("slug") ?? "", title: try fields.string("title") ?? "", instructor: caller.account, by: caller.account)
        if let visibility { course = try await service.change(course, to: .init(visibility: visibility), by: caller.account) }
        return try JSONResponse.make(body(course, role: .instructor, caller: caller), status: .created)
    }

    private func mayCreate(_ caller: Caller) -> Bool {
        courseCreators == .anyone || caller.account.isAdmin
    }

    /// The request's course: the one its path names, or the default course at the root.
    private func course(_ context: AppRequestContext) async throws -> Course {
        if let mounted = context.facts.mountedCourse { return mounted }
        guard let course = try await store.course(id: .default) else { throw APIError.courseNotFound }
        return course
    }

    /// The course as `caller` sees it, whose role there was read with their session.
    private func body(_ course: Course, caller: Caller?) -> CourseBody {
        body(course, role: caller?.courseRole, caller: caller)
    }

    private func body(_ course: Course, role: CourseRole?, caller: Caller?) -> CourseBody {
        let teaches = role == .instructor || caller?.account.isAdmin == true
        let invite = teaches ? CourseBody.InviteBody(enabled: course.inviteEnabled, url: (publicURL?.origin ?? "") + service.invitePath(for: course)) : nil
        return CourseBody(course, role: role, invite: invite)
    }
}

private struct CourseList: Encodable {
    let results: [CourseBody]
    /// Whether the caller may start a course (`POST /v1/courses`).
    let canCreate: Bool
}

private struct EmptyCourseBody: Encodable {}
