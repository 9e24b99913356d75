/// Migration 15: a map per class. Every pin, report, audit entry and live event belongs to a
/// course; the default course (id 1, slug `default`, the first one made) owns everything there was
/// before, and every account is its member (admins as its instructors). A student has one pin per
/// course, and every index the public reads use leads with the course and keeps holding visible
/// pins only. The kept count of visible pins is kept per course.
///
/// Not expand-only: an instance of the previous release still running during a rolling upgrade
/// can no longer save a pin (its upsert names the unique owner that is gone) nor count them (the
/// single count is gone); its reads go on, in the default course. README.md, "Upgrading", says so.
/// The `course_id` columns default to the default course, so that its events and reports land there.
enum Courses {
    static func schema(_ f: any SQLFlavour) -> [String] {
        [
            """
            CREATE TABLE courses (
                id \(f.generatedKey),
                slug \(f.text) NOT NULL UNIQUE,
                title \(f.text) NOT NULL,
                created_at BIGINT NOT NULL,
                archived_at BIGINT,
                visibility \(f.text) NOT NULL DEFAULT 'members' CHECK (visibility IN ('members', 'link')),
                names_shown \(f.text) NOT NULL DEFAULT 'full' CHECK (names_shown IN ('full', 'initials')),
                approval_required BOOLEAN NOT NULL DEFAULT FALSE,
                everyone_joins BOOLEAN NOT NULL DEFAULT FALSE,
                invite_token_hash \(f.text) UNIQUE,
                invite_enabled BOOLEAN NOT NULL DEFAULT FALSE
            )
            """,
            // The first row of a new table: id 1 on both engines. It began with the first account,
            // and every account made from now on joins it (`everyone_joins`), as before courses.
            """
            INSERT INTO courses (slug, title, created_at, everyone_joins)
            SELECT 'default', 'On The Map', COALESCE((SELECT MIN(created_at) FROM accounts), 0), TRUE
            """,
            """
            CREATE TABLE course_members (
                course_id BIGINT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
                account_key \(f.text) NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
                role \(f.text) NOT NULL CHECK (role IN ('student', 'instructor')),
                joined_at BIGINT NOT NULL,
                PRIMARY KEY (course_id, account_key)
            )
            """,
            "CREATE INDEX course_members_by_account ON course_members (account_key)",
            """
            INSERT INTO course_members (course_id, account_key, role, joined_at)
            SELECT 1, key, CASE WHEN is_admin THEN 'instructor' ELSE 'student' END, created_at FROM accounts
            """,
        ] + f.pinsInCourses + [
            "CREATE UNIQUE INDEX student_locations_by_owner ON student_locations (course_id, owner_key)",
            "CREATE INDEX student_locations_latest ON student_locations (course_id, updated_at DESC, object_id) WHERE hidden_at IS NULL",
            "CREATE INDEX student_locations_by_created ON student_locations (course_id, created_at, object_id) WHERE hidden_at IS NULL",
            "CREATE INDEX student_locations_by_last_name ON student_locations (course_id, last_name, object_id) WHERE hidden_at IS NULL",
            "CREATE INDEX student_locations_by_first_name ON student_locations (course_id, first_name, object_id) WHERE hidden_at IS NULL",
            // A student's pins in every course: few rows, found by the key alone, the course checked
            // on them (`SQLStore.locations`).
            "CREATE INDEX student_locations_by_unique_key ON student_locations (unique_key) WHERE hidden_at IS NULL",
            "CREATE INDEX student_locations_hidden ON student_locations (course_id, hidden_at) WHERE hidden_at IS NOT NULL",
            // A course's pins in objectId order: its export, page by page.
            "CREATE INDEX student_locations_by_course ON student_locations (course_id, object_id)",
            // Kept by the triggers `pinCountsPerCourse` makes; a course without a row has none.
            """
            CREATE TABLE course_pin_counts (
                course_id BIGINT PRIMARY KEY REFERENCES courses(id) ON DELETE CASCADE,
                visible_pins BIGINT NOT NULL
            )
            """,
            """
            INSERT INTO course_pin_counts (course_id, visible_pins)
            SELECT id, (SELECT COUNT(*) FROM student_locations WHERE course_id = courses.id AND hidden_at IS NULL) FROM courses
            """,
        ] + f.pinCountsPerCourse + [
            "DROP TABLE row_counts",
            "ALTER TABLE reports ADD COLUMN course_id BIGINT NOT NULL DEFAULT 1",
            "CREATE INDEX reports_by_course ON reports (course_id, created_at)",
            // NULL for what is not a course's (an account disabled); what was before is the default course's.
            "ALTER TABLE audit_log ADD COLUMN course_id BIGINT",
            "UPDATE audit_log SET course_id = 1",
            "CREATE INDEX audit_log_by_course ON audit_log (course_id, id)",
            "ALTER TABLE location_events ADD COLUMN course_id BIGINT NOT NULL DEFAULT 1",
            "CREATE INDEX location_events_by_course ON location_events (course_id, id)",
        ]
    }

    /// Migration 16, expand only. A course's invite link is made from the server's secret and the
    /// course's `invite_generation` (`CourseInvite`), so an instructor sees the same link each time
    /// without the database holding it (`invite_token_hash` stays empty); turning it over moves the
    /// generation on. A class list may
    /// name students before they have an account: they wait in `course_pending_members` by their
    /// normalised email, and join when an account with it is made.
    static func invitesAndClassLists(_ f: any SQLFlavour) -> [String] {
        [
            "ALTER TABLE courses ADD COLUMN invite_generation BIGINT NOT NULL DEFAULT 0",
            """
            CREATE TABLE course_pending_members (
                course_id BIGINT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
                email \(f.text) NOT NULL,
                role \(f.text) NOT NULL CHECK (role IN ('student', 'instructor')),
                added_at BIGINT NOT NULL,
                PRIMARY KEY (course_id, email)
            )
            """,
            "CREATE INDEX course_pending_members_by_email ON course_pending_members (email)",
        ]
    }

    /// Migration 17, expand only. In a course whose instructors approve pins first, a student's
    /// new or changed pin waits: it is hidden (`hidden_at` set, so every partial index, count and
    /// public read leaves it out as they are) and `awaiting_approval`, which tells "waiting" from
    /// "hidden by a moderator". Approving shows it (both cleared); declining hides it for good
    /// (the flag cleared). Instances of the previous version write pins that show at once, as a
    /// course could not ask for approval before.
    static func approval(_ f: any SQLFlavour) -> [String] {
        [
            "ALTER TABLE student_locations ADD COLUMN awaiting_approval BOOLEAN NOT NULL DEFAULT FALSE",
            """
            CREATE INDEX student_locations_awaiting_approval ON student_locations (course_id, updated_at DESC, object_id)
            WHERE awaiting_approval
            """,
        ]
    }
}
