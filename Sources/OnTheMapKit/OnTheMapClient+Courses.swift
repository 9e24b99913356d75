internal import Foundation
internal import OpenAPIRuntime

extension OnTheMapClient {
    /// The logged-in account's courses, the default course first, with its role in each (every
    /// course, for a server admin).
    public func myCourses() async throws(OnTheMapError) -> [Course] {
        let list = try await call { try await api.myCourses().ok.body.json }
        return try list.results.map { wire throws(OnTheMapError) in try Course(wire, server: baseURL) }
    }

    /// Makes a course, taught by the logged-in account, and returns it with its invite link (off
    /// until switched on in the web client). `slug` is its address, `/c/{slug}/`: 2 to 48
    /// lower-case letters, digits and single hyphens (else ``OnTheMapError/Kind/invalid``);
    /// ``OnTheMapError/Kind/courseSlugTaken`` when another course has it.
    public func createCourse(slug: String, title: String, visibility: Course.Visibility = .members) async throws(OnTheMapError) -> Course {
        let body = Operations.CreateCourse.Input.Body.JsonPayload(
            slug: slug, title: title, visibility: .init(rawValue: visibility.rawValue))
        return try Course(try await call { try await api.createCourse(body: .json(body)).created.body.json }, server: baseURL)
    }

    /// The course this client uses (``courseSlug``; the default course when nil), for whoever may
    /// read its map: ``OnTheMapError/Kind/courseNotFound`` when no course has the slug,
    /// ``OnTheMapError/Kind/notACourseMember`` for a members-only course the account is not in.
    public func courseDetails() async throws(OnTheMapError) -> Course {
        try Course(try await call { try await api.courseShow().ok.body.json }, server: baseURL)
    }

    /// Joins this client's course with its invite token (the last part of the link), as a student.
    /// ``OnTheMapError/Kind/inviteNotValid`` when the link was switched off or replaced, is another
    /// course's, or the course is archived.
    public func join(token: String) async throws(OnTheMapError) -> CourseJoin {
        let answer = try await call { try await api.courseJoin(body: .json(.init(invite: token))) }
        switch answer {
        case .created(let joined): return .joined(try Course(try await call { try joined.body.json }, server: baseURL))
        case .ok(let member): return .alreadyMember(try Course(try await call { try member.body.json }, server: baseURL))
        default: throw .unexpected("joining answered \(answer)")
        }
    }

    /// Joins the course an invite link names, whatever course this client uses.
    ///
    /// ```swift
    /// guard let invite = InviteLink(openedURL) else { return }
    /// let course = try await client.join(invite).course
    /// let map = client.course(course.slug)
    /// ```
    public func join(_ invite: InviteLink) async throws(OnTheMapError) -> CourseJoin {
        try await course(invite.slug).join(token: invite.token)
    }
}
