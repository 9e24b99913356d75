import Foundation
import GRDB
import OnTheMapModel
@testable import OnTheMapPostgres
@testable import OnTheMapSQLite
@testable import OnTheMapStore
import OnTheMapTestSupport
import PostgresNIO
import SQLKit
import Testing

/// A database of the last release, populated as that release left it, is upgraded by this one with
/// nothing lost. The database is built from the migrations as they shipped (ShippedMigrationsTests
/// holds them to that) up to `PreviousRelease.schemaVersion`, and filled by plain SQL, as that
/// release's code wrote it; then this version opens it, applies what is newer and reads everything
/// back through the store. A release that changes the schema moves `schemaVersion` on and adds what
/// its migration must make of these rows (the courses' migration: every row in the default course).
@Suite struct PreviousReleaseUpgradeTests {
    enum PreviousRelease {
        /// The newest migration of the last release.
        static let schemaVersion = 14
        static let now: Int64 = 1_764_000_000_000

        /// Three accounts (an admin, a student, a disabled student), their sessions (one from before
        /// sessions had an idle bound), three pins (one hidden by the admin), a report, the audit
        /// log's entry, a linked sign-in, an idempotency record and the location events.
        static let rows = [
            """
            INSERT INTO accounts (key, email, password_hash, first_name, last_name, is_admin, created_at, disabled_at, last_login_at) VALUES
              ('acct-ada', 'ada@example.com', 'hash-ada', 'Ada', 'Admin', TRUE, \(now - 9_000), NULL, \(now - 100)),
              ('acct-grace', 'grace@example.com', 'hash-grace', 'Grace', 'Hopper', FALSE, \(now - 8_000), NULL, \(now - 200)),
              ('acct-linus', 'linus@example.com', 'hash-linus', 'Linus', 'Disabled', FALSE, \(now - 7_000), \(now - 50), NULL)
            """,
            """
            INSERT INTO sessions (token_hash, account_key, created_at, expires_at, idle_expires_at, confirmed_at) VALUES
              ('session-ada', 'acct-ada', \(now - 1_000), \(now + 86_400_000), \(now + 3_600_000), \(now - 1_000)),
              ('session-grace-old', 'acct-grace', \(now - 2_000), \(now + 86_400_000), NULL, NULL)
            """,
            """
            INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string, media_url,
                                           latitude, longitude, created_at, updated_at, hidden_at) VALUES
              ('pin-ada', 'acct-ada', 'acct-ada', 'Ada', 'Admin', 'London, UK', 'https://ada.example.com', 51.5, -0.12, \(now - 6_000), \(now - 3_000), NULL),
              ('pin-grace', 'acct-grace', 'acct-grace', 'Grace', 'Hopper', 'Arlington, VA ', 'https://grace.example.com', 38.88, -77.1, \(now - 5_000), \(now - 2_000), NULL),
              ('pin-linus', 'acct-linus', 'acct-linus', 'Linus', 'Disabled', 'Helsinki', 'https://linus.example.com', 60.17, 24.94, \(now - 4_000), \(now - 1_000), \(now - 500))
            """,
            """
            INSERT INTO reports (object_id, reporter_key, reason, created_at, resolved_at, resolved_by, resolution) VALUES
              ('pin-linus', 'acct-grace', 'spam', \(now - 900), NULL, NULL, NULL)
            """,
            """
            INSERT INTO audit_log (at, actor_key, actor_email, action, target, detail) VALUES
              (\(now - 500), 'acct-ada', 'ada@example.com', 'hide-location', 'pin-linus', 'Helsinki')
            """,
            """
            INSERT INTO account_identities (provider, subject, account_key, email, linked_at) VALUES
              ('school', 'subject-grace', 'acct-grace', 'grace@example.com', \(now - 7_500))
            """,
            """
            INSERT INTO idempotency_keys (key, fingerprint, answer, created_at, caller, address) VALUES
              ('idem-1', 'fingerprint', '{"status":201}', \(now - 300), 'acct-grace', NULL)
            """,
        ]
    }

    /// The previous release's schema, as its migrations and its migration table left it.
    private func previousSchema(_ flavour: any SQLFlavour) -> [String] {
        let shipped = Schema.migrations.filter { $0.version <= PreviousRelease.schemaVersion }
        return ["CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"]
            + shipped.flatMap { migration in
                ["INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(migration.version), 'as shipped', 0)"]
                    + migration.statements(flavour)
            }
    }

    /// Runs `statements`, one by one, on the not yet opened database.
    private func prepare(_ database: TestDatabase, _ statements: [String]) async throws {
        switch database.engine {
        case .sqlite:
            let queue = try DatabaseQueue(path: database.location)
            try await queue.write { db in for statement in statements { try db.execute(sql: statement) } }
            try queue.close()
        case .postgres:
            let schema = try #require(try PostgresAddress(database.location).schema)
            try await database.executeInSchema("CREATE SCHEMA IF NOT EXISTS \(schema)")
            for statement in statements { try await database.executeInSchema(statement) }
        }
    }

    @Test func aDatabaseOfThePreviousReleaseIsUpgradedWithNothingLost() async throws {
        try await TestDatabase.withFresh { temporary in
            let flavour: any SQLFlavour = temporary.engine == .sqlite ? SQLiteFlavour() : PostgresFlavour()
            try await prepare(temporary, previousSchema(flavour) + PreviousRelease.rows)

            let engine = try await temporary.open()
            do {
                try await expectEverythingKept(in: engine.store)
            } catch {
                try? await engine.close()
                throw error
            }
            try await engine.close()
        }
    }

    private func expectEverythingKept(in store: SQLStore) async throws {
            // Every migration of this version is applied, once.
            let versions = try await store.writer.run(SQLQueryString("SELECT version FROM schema_migrations ORDER BY version"))
                .map { try $0.decode(column: "version", as: Int.self) }
            #expect(versions == Schema.migrations.map(\.version))

            // The accounts, their roles and states.
            let ada = try #require(try await store.account(email: "ada@example.com"))
            #expect(ada.isAdmin && ada.firstName == "Ada")
            #expect(try await store.allAccounts().map(\.key).sorted() == ["acct-ada", "acct-grace", "acct-linus"])
            let linus = try #require(try await store.accountsForAdmin(search: "linus", limit: 10, skip: 0).first)
            #expect(linus.account.disabledAt == PreviousRelease.now - 50)

            // Sessions, the one from before idle bounds included.
            let adaSession = try #require(try await store.session(tokenHash: "session-ada", now: PreviousRelease.now, in: .default))
            #expect(adaSession.account.key == "acct-ada" && adaSession.confirmedAt == PreviousRelease.now - 1_000)
            #expect(adaSession.courseRole == .instructor, "an admin became the default course's instructor")
            let oldSession = try #require(try await store.session(tokenHash: "session-grace-old", now: PreviousRelease.now, in: .default))
            #expect(oldSession.account.key == "acct-grace" && oldSession.idleExpiresAt == nil)
            #expect(oldSession.courseRole == .student)

            // The pins: the visible ones listed newest first, exactly as stored; the hidden one kept.
            let page = try await store.locations(LocationQuery(limit: 100), in: .default)
            #expect(page.results.map(\.objectId) == ["pin-grace", "pin-ada"])
            #expect(page.results.first?.mapString == "Arlington, VA ")
            let hidden = try #require(try await store.location(objectId: "pin-linus"))
            #expect(hidden.hiddenAt == PreviousRelease.now - 500 && hidden.ownerKey == "acct-linus")
            #expect(try await store.location(ownerKey: "acct-grace", in: .default)?.location.objectId == "pin-grace")

            // Moderation: the open report, the audit log's entry.
            let reported = try await store.reportedPins(openOnly: true, limit: 10, skip: 0, in: nil)
            #expect(reported.map(\.objectId) == ["pin-linus"])
            #expect(try await store.auditLog(limit: 10, before: nil, in: nil).map(\.action) == [.hideLocation])

            // The linked sign-in and the kept answer.
            #expect(try await store.account(provider: "school", subject: "subject-grace")?.key == "acct-grace")
            #expect(try await store.idempotencyKeyCount() == 1)

            // Courses (migration 15): the default course holds every pin, report and audit entry,
            // every account is its member (the admin as its instructor), and its count is the
            // visible pins'.
            try await expectTheDefaultCourseHoldsEverything(in: store)
            #expect(try await store.locations(LocationQuery(limit: 0, includeCount: true), in: .default).count == 2)

            // And this version writes on it: a new pin, listed first; its author joined the default course.
            let newcomer = try await store.newAccount("After")
            _ = try await store.pin(newcomer, at: "After the upgrade", now: PreviousRelease.now + 1_000)
            #expect(try await store.locations(LocationQuery(limit: 100), in: .default).results.map(\.mapString).first == "After the upgrade")
            #expect(try await column("SELECT role FROM course_members WHERE course_id = 1 AND account_key = '\(newcomer.key)'", in: store) == ["student"])
            #expect(try await store.locations(LocationQuery(limit: 0, includeCount: true), in: .default).count == 3)
    }

    private func expectTheDefaultCourseHoldsEverything(in store: SQLStore) async throws {
        #expect(try await column("SELECT slug || ':' || title FROM courses", in: store) == ["default:On The Map"])
        #expect(try await column("SELECT account_key || ':' || role FROM course_members WHERE course_id = 1 ORDER BY account_key", in: store)
            == ["acct-ada:instructor", "acct-grace:student", "acct-linus:student"])
        for table in ["student_locations", "reports", "audit_log"] {
            #expect(try await column("SELECT DISTINCT course_id FROM \(table)", in: store) == ["1"], "\(table)")
        }
        #expect(try await column("SELECT visible_pins FROM course_pin_counts WHERE course_id = 1", in: store) == ["2"])

        // One pin per student per course: Grace may have another in a second course, not a second in this one.
        let cs101 = try await store.newCourse("cs101")
        func secondPin(in course: CourseID) -> SQLQueryString {
            """
            INSERT INTO student_locations (object_id, owner_key, unique_key, first_name, last_name, map_string, media_url,
                                           latitude, longitude, created_at, updated_at, course_id)
            VALUES (\(bind: "pin-grace-\(course.rawValue)"), 'acct-grace', 'acct-grace', 'Grace', 'Hopper', 'Here', '', 0, 0, 0, 0,
                    \(bind: course.rawValue))
            """
        }
        try await store.writer.run(secondPin(in: cs101))
        await #expect(throws: (any Error).self) { try await store.writer.run(secondPin(in: .default)) }
        #expect(try await column("SELECT course_id || ':' || visible_pins FROM course_pin_counts ORDER BY course_id", in: store) == ["1:2", "2:1"])
        try await store.writer.run(SQLQueryString("DELETE FROM student_locations WHERE course_id = \(bind: cs101.rawValue)"))
        try await store.writer.run(SQLQueryString("DELETE FROM courses WHERE id = \(bind: cs101.rawValue)"))
    }

    /// The first column of `query`'s rows, as text.
    private func column(_ query: String, in store: SQLStore) async throws -> [String] {
        try await store.writer.run(SQLQueryString(stringLiteral: query)).map { row in
            let name = try #require(row.allColumns.first)
            if let number = try? row.decode(column: name, as: Int64.self) { return String(number) }
            return try row.decode(column: name, as: String.self)
        }
    }
}
