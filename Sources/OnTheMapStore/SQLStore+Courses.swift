import OnTheMapModel
import SQLKit

extension SQLStore: CourseStore {
    static let courseColumns = """
        id, slug, title, created_at, archived_at, visibility, names_shown, approval_required, everyone_joins, invite_enabled
        """

    public func course(slug: CourseSlug) async throws -> Course? {
        try await reader.raw("SELECT \(unsafeRaw: Self.courseColumns) FROM courses WHERE slug = \(bind: slug.rawValue)")
            .first().map(Self.course(from:))
    }

    public func course(id: CourseID) async throws -> Course? {
        try await reader.raw("SELECT \(unsafeRaw: Self.courseColumns) FROM courses WHERE id = \(bind: id.rawValue)")
            .first().map(Self.course(from:))
    }

    public func createCourse(slug: CourseSlug, title: String, instructorKey: String, now: Int64) async throws -> Course {
        do {
            return try await writer.perform(WriteUnit([
                SQLQueryString("""
                    INSERT INTO courses (slug, title, created_at) VALUES (\(bind: slug.rawValue), \(bind: title), \(bind: now))
                    RETURNING \(unsafeRaw: Self.courseColumns)
                    """),
                SQLQueryString("""
                    INSERT INTO course_members (course_id, account_key, role, joined_at)
                    SELECT id, \(bind: instructorKey), 'instructor', \(bind: now) FROM courses WHERE slug = \(bind: slug.rawValue)
                    """),
            ]) { rows in (try Self.course(from: rows[0][0]), []) })
        } catch {
            if try await course(slug: slug) != nil { throw StoreError.slugTaken }
            throw error
        }
    }

    public func updateCourse(_ course: Course) async throws {
        try await writer.run(SQLQueryString("""
            UPDATE courses SET title = \(bind: course.title), archived_at = \(bind: course.archivedAt),
                visibility = \(bind: course.visibility.rawValue), names_shown = \(bind: course.namesShown.rawValue),
                approval_required = \(bind: course.approvalRequired), everyone_joins = \(bind: course.everyoneJoins),
                invite_enabled = \(bind: course.inviteEnabled)
            WHERE id = \(bind: course.id.rawValue)
            """))
    }

    public func setMember(_ accountKey: String, of course: CourseID, role: CourseRole, now: Int64) async throws -> Bool {
        // A row comes back when the member was added or their role changed, none when it was theirs.
        let rows = try await writer.run(SQLQueryString("""
            INSERT INTO course_members (course_id, account_key, role, joined_at)
            VALUES (\(bind: course.rawValue), \(bind: accountKey), \(bind: role.rawValue), \(bind: now))
            ON CONFLICT (course_id, account_key) DO UPDATE SET role = excluded.role WHERE course_members.role <> excluded.role
            RETURNING role
            """))
        return !rows.isEmpty
    }

    public func role(of accountKey: String, in course: CourseID) async throws -> CourseRole? {
        guard accountKey.isStorable else { return nil }
        return try await reader.raw("""
            SELECT role FROM course_members WHERE course_id = \(bind: course.rawValue) AND account_key = \(bind: accountKey)
            """).first().flatMap { CourseRole(rawValue: try $0.decode(column: "role", as: String.self)) }
    }

    static func course(from row: any SQLRow) throws -> Course {
        let slug = try row.decode(column: "slug", as: String.self)
        guard let courseSlug = CourseSlug(rawValue: slug) else { throw UnreadableCourse(column: "slug", value: slug) }
        let visibility = try row.decode(column: "visibility", as: String.self)
        let namesShown = try row.decode(column: "names_shown", as: String.self)
        // The table's CHECKs allow only these; anything else is a database changed by hand.
        guard let seenBy = Course.Visibility(rawValue: visibility) else { throw UnreadableCourse(column: "visibility", value: visibility) }
        guard let names = Course.NamesShown(rawValue: namesShown) else { throw UnreadableCourse(column: "names_shown", value: namesShown) }
        return Course(
            id: CourseID(rawValue: try row.decode(column: "id", as: Int64.self)), slug: courseSlug,
            title: try row.decode(column: "title", as: String.self), createdAt: try row.decode(column: "created_at", as: Int64.self),
            archivedAt: try row.optionalInt64(column: "archived_at"), visibility: seenBy, namesShown: names,
            approvalRequired: try row.decode(column: "approval_required", as: Bool.self),
            everyoneJoins: try row.decode(column: "everyone_joins", as: Bool.self),
            inviteEnabled: try row.decode(column: "invite_enabled", as: Bool.self))
    }
}

/// A course row the model cannot hold (a value the schema's checks would refuse).
struct UnreadableCourse: Error, CustomStringConvertible {
    let column: String
    let value: String
    var description: String { "courses.\(column) holds '\(value)', which this release cannot read" }
}
