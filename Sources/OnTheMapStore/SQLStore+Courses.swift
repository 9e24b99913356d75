import OnTheMapModel
import SQLKit

extension SQLStore: CourseStore {
    static let courseColumns = """
        id, slug, title, created_at, archived_at, visibility, names_shown, approval_required, everyone_joins, invite_enabled,
        invite_generation
        """

    public func course(slug: CourseSlug) async throws -> Course? {
        try await reader.raw("SELECT \(unsafeRaw: Self.courseColumns) FROM courses WHERE slug = \(bind: slug.rawValue)")
            .first().map(Self.course(from:))
    }

    public func course(id: CourseID) async throws -> Course? {
        try await reader.raw("SELECT \(unsafeRaw: Self.courseColumns) FROM courses WHERE id = \(bind: id.rawValue)")
            .first().map(Self.course(from:))
    }

    public func allCourses() async throws -> [Course] {
        try await reader.raw("SELECT \(unsafeRaw: Self.courseColumns) FROM courses ORDER BY id <> 1, slug").all().map(Self.course(from:))
    }

    public func courses(of accountKey: String) async throws -> [(course: Course, role: CourseRole)] {
        guard accountKey.isStorable else { return [] }
        let columns = Self.courseColumns.split(separator: ",").map { "courses." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return try await reader.raw("""
            SELECT \(unsafeRaw: columns.joined(separator: ", ")), course_members.role AS role
            FROM course_members JOIN courses ON courses.id = course_members.course_id
            WHERE course_members.account_key = \(bind: accountKey) ORDER BY courses.id <> 1, courses.slug
            """).all().map { row in (try Self.course(from: row), try Self.role(from: row)) }
    }

    public func createCourse(slug: CourseSlug, title: String, instructorKey: String, now: Int64, audit: AuditEntry?) async throws -> Course {
        let inCourse: SQLQueryString = "FROM courses WHERE slug = \(bind: slug.rawValue)"
        do {
            let created = try await writer.perform(WriteUnit([
                SQLQueryString("""
                    INSERT INTO courses (slug, title, created_at) VALUES (\(bind: slug.rawValue), \(bind: title), \(bind: now))
                    RETURNING \(unsafeRaw: Self.courseColumns)
                    """),
                SQLQueryString("""
                    INSERT INTO course_members (course_id, account_key, role, joined_at)
                    SELECT id, \(bind: instructorKey), 'instructor', \(bind: now) \(inCourse)
                    """),
            ] + (audit.map { [Self.insert($0, in: inCourse)] } ?? [])) { rows in (try Self.course(from: rows[0][0]), []) })
            await sessionsChanged(of: [instructorKey])
            return created
        } catch {
            if try await course(slug: slug) != nil { throw StoreError.slugTaken }
            throw error
        }
    }

    public func updateCourse(_ course: Course, audit: AuditEntry?) async throws {
        try await writer.perform(WriteUnit([SQLQueryString("""
            UPDATE courses SET title = \(bind: course.title), archived_at = \(bind: course.archivedAt),
                visibility = \(bind: course.visibility.rawValue), names_shown = \(bind: course.namesShown.rawValue),
                approval_required = \(bind: course.approvalRequired), everyone_joins = \(bind: course.everyoneJoins)
            WHERE id = \(bind: course.id.rawValue)
            """)] + (audit.map { [Self.insert($0)] } ?? [])) { _ in ((), []) })
    }

    public func deleteCourse(_ course: CourseID, audit: AuditEntry?) async throws -> Bool {
        precondition(course != .default, "the default course stays")
        let id = course.rawValue
        // The entry first, while the course is there to say so (the log keeps it after).
        let entry = audit.map { [Self.insert($0, in: "FROM courses WHERE id = \(bind: id)")] } ?? []
        let deleted = try await writer.perform(WriteUnit(entry + [
            SQLQueryString("DELETE FROM student_locations WHERE course_id = \(bind: id)"),
            SQLQueryString("DELETE FROM reports WHERE course_id = \(bind: id)"),
            SQLQueryString("DELETE FROM location_events WHERE course_id = \(bind: id) AND kind <> 'reload'"),
            // Its members, class list and kept count go with it (ON DELETE CASCADE).
            SQLQueryString("DELETE FROM courses WHERE id = \(bind: id) RETURNING id"),
        ]) { rows in
            // Its cached list empties on every instance; its streams end at their next heartbeat.
            rows[entry.count + 3].isEmpty ? (false, []) : (true, [.elsewhere(in: course)])
        })
        // Its members' roles in it went with it.
        if deleted { await sessionsChanged(of: nil) }
        return deleted
    }

    public func setInvite(of course: CourseID, enabled: Bool, turnOver: Bool, audit: AuditEntry?) async throws -> Course? {
        try await writer.perform(WriteUnit([SQLQueryString("""
            UPDATE courses SET invite_enabled = \(bind: enabled), invite_generation = invite_generation + \(bind: turnOver ? 1 : 0)
            WHERE id = \(bind: course.rawValue) RETURNING \(unsafeRaw: Self.courseColumns)
            """)] + (audit.map { [Self.insert($0, in: "FROM courses WHERE id = \(bind: course.rawValue)")] } ?? [])) { rows in
            (try rows[0].first.map(Self.course(from:)), [])
        })
    }

    public func setMember(_ accountKey: String, of course: CourseID, role: CourseRole, now: Int64) async throws -> Bool {
        // A row comes back when the member was added or their role changed; none when it was
        // theirs, or when they are the last instructor and would stop being one.
        let changed = try await changeMembership(of: course, SQLQueryString("""
            INSERT INTO course_members (course_id, account_key, role, joined_at)
            VALUES (\(bind: course.rawValue), \(bind: accountKey), \(bind: role.rawValue), \(bind: now))
            ON CONFLICT (course_id, account_key) DO UPDATE SET role = excluded.role
            WHERE course_members.role <> excluded.role AND \(Self.notTheLastInstructor(in: course))
            RETURNING role
            """))
        if changed {
            await sessionsChanged(of: [accountKey])
            return true
        }
        if try await self.role(of: accountKey, in: course) == role { return false }
        throw StoreError.lastInstructor
    }

    public func removeMember(_ accountKey: String, from course: CourseID) async throws -> Bool {
        guard accountKey.isStorable else { return false }
        let removed = try await changeMembership(of: course, SQLQueryString("""
            DELETE FROM course_members WHERE course_id = \(bind: course.rawValue) AND account_key = \(bind: accountKey)
            AND \(Self.notTheLastInstructor(in: course)) RETURNING role
            """))
        if removed {
            await sessionsChanged(of: [accountKey])
            return true
        }
        if try await role(of: accountKey, in: course) == nil { return false }
        throw StoreError.lastInstructor
    }

    /// True of a member row that is not an instructor, or not the course's only one.
    private static func notTheLastInstructor(in course: CourseID) -> SQLQueryString {
        """
        (course_members.role <> 'instructor'
         OR (SELECT COUNT(*) FROM course_members AS others WHERE others.course_id = \(bind: course.rawValue) AND others.role = 'instructor') > 1)
        """
    }

    /// Runs a change of the course's members while no other change of them runs (two instructors
    /// demoting each other at once cannot leave none); whether it changed a row.
    private func changeMembership(of course: CourseID, _ change: SQLQueryString) async throws -> Bool {
        let statements = flavour.takingTurns(over: SQLRaw("'onthemap-course-members:\(course.rawValue):' || current_schema()")) + [change]
        return try await writer.perform(WriteUnit(statements) { rows in (!rows[statements.count - 1].isEmpty, []) })
    }

    public func members(of course: CourseID, limit: Int, skip: Int) async throws -> [CourseMember] {
        let members = try await reader.raw("""
            SELECT \(unsafeRaw: Self.qualifiedAccountColumns), course_members.role AS role, course_members.joined_at AS joined_at
            FROM course_members JOIN accounts ON accounts.key = course_members.account_key
            WHERE course_members.course_id = \(bind: course.rawValue)
            ORDER BY course_members.role = 'student', accounts.last_name, accounts.first_name, accounts.key
            LIMIT \(bind: limit) OFFSET \(bind: skip)
            """).all().map { row in
            CourseMember(
                account: try Self.account(from: row), role: try Self.role(from: row), joinedAt: try row.decode(column: "joined_at", as: Int64.self),
                pin: nil)
        }
        guard !members.isEmpty else { return [] }
        // Their pins in a second read, by the course's unique key on owners.
        let pins = try await reader.raw("""
            SELECT \(unsafeRaw: Self.locationColumnsAndHidden) FROM student_locations
            WHERE course_id = \(bind: course.rawValue) AND owner_key IN (\(binds: members.map(\.account.key)))
            """).all().map(Self.owned(from:))
        let pinByOwner = Dictionary(pins.compactMap { pin in pin.ownerKey.map { ($0, pin) } }, uniquingKeysWith: { first, _ in first })
        return members.map { member in
            var member = member
            member.pin = pinByOwner[member.account.key]
            return member
        }
    }

    public func addPendingMember(email: String, to course: CourseID, role: CourseRole, now: Int64) async throws -> Bool {
        try await !writer.run(SQLQueryString("""
            INSERT INTO course_pending_members (course_id, email, role, added_at)
            VALUES (\(bind: course.rawValue), \(bind: email), \(bind: role.rawValue), \(bind: now))
            ON CONFLICT (course_id, email) DO UPDATE SET role = excluded.role WHERE course_pending_members.role <> excluded.role
            RETURNING role
            """)).isEmpty
    }

    public func pendingMembers(of course: CourseID) async throws -> [PendingMember] {
        try await reader.raw("""
            SELECT email, role, added_at FROM course_pending_members WHERE course_id = \(bind: course.rawValue) ORDER BY email
            """).all().map { row in
            PendingMember(
                email: try row.decode(column: "email", as: String.self), role: try Self.role(from: row),
                addedAt: try row.decode(column: "added_at", as: Int64.self))
        }
    }

    public func removePendingMember(email: String, from course: CourseID) async throws -> Bool {
        guard email.isStorable else { return false }
        return try await !writer.run(SQLQueryString("""
            DELETE FROM course_pending_members WHERE course_id = \(bind: course.rawValue) AND email = \(bind: email) RETURNING email
            """)).isEmpty
    }

    public func role(of accountKey: String, in course: CourseID) async throws -> CourseRole? {
        guard accountKey.isStorable else { return nil }
        return try await reader.raw("""
            SELECT role FROM course_members WHERE course_id = \(bind: course.rawValue) AND account_key = \(bind: accountKey)
            """).first().map(Self.role(from:))
    }

    static func role(from row: any SQLRow) throws -> CourseRole {
        let role = try row.decode(column: "role", as: String.self)
        guard let known = CourseRole(rawValue: role) else { throw UnreadableCourse(column: "role", value: role) }
        return known
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
            inviteEnabled: try row.decode(column: "invite_enabled", as: Bool.self),
            inviteGeneration: try row.decode(column: "invite_generation", as: Int64.self))
    }
}

/// A course or member row the model cannot hold (a value the schema's checks would refuse).
struct UnreadableCourse: Error, CustomStringConvertible {
    let column: String
    let value: String
    var description: String { "\(column) holds '\(value)', which this release cannot read" }
}
