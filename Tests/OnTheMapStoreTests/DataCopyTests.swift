import Foundation
import OnTheMapModel
@testable import OnTheMapSQLite
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// `copy-data` moves accounts, sessions and locations between engines and proves it.
/// SQLite → the engine under test → SQLite gives back the same rows (on the PostgreSQL run, a
/// real round trip through PostgreSQL).
@Suite struct DataCopyTests {
    /// A source with what is hard to carry: an admin, an anonymous legacy pin, text that needs
    /// quoting or is outside ASCII, coordinates with no short decimal form.
    func seededSource(at path: String) async throws -> SQLiteDatabaseFile {
        var options = SQLiteDatabaseFile.Options()
        options.readBudget = .seconds(600)
        let source = try await SQLiteDatabaseFile.open(path: path, options: options, logger: .quiet)
        let store = source.store
        let admin = try await store.createAccount(email: "root@example.com", firstName: "Root", lastName: "O'Admin", passwordHash: "h1", isAdmin: true)
        let zoë = try await store.createAccount(email: "zoe@example.com", firstName: "Zoë", lastName: "Ψ \"quoted\"", passwordHash: "h2", isAdmin: false)
        try await store.insertSession(SessionRecord(tokenHash: "t1", accountKey: zoë.key, createdAt: 1, expiresAt: 9_999_999_999_999_999))
        try await store.insertSession(SessionRecord(tokenHash: "t2", accountKey: admin.key, createdAt: 2, expiresAt: 3))
        // Sign-in identities: a two-column key, in an order that differs between byte order and a
        // locale's (`B` before `a` byte by byte), paged across with pages of two.
        for (provider, subject) in [("school", "b-sub"), ("school", "B-sub"), ("gitlab", "a")] {
            try await store.link(ExternalIdentity(provider: provider, subject: subject, accountKey: zoë.key, email: zoë.email, linkedAt: 4))
        }
        _ = try await store.saveLocation(
            CompleteLocationFields(uniqueKey: zoë.key, firstName: "Zoë", lastName: "Ψ", mapString: "Zürich\nline two",
                                   mediaURL: "https://example.org/ü", latitude: 0.1 + 0.2, longitude: -1e-7),
            ownerKey: zoë.key, in: .default, now: 1_700_000_000_001)
        let legacy = try await store.saveLocation(
            CompleteLocationFields(uniqueKey: "legacy", firstName: "", lastName: "", mapString: "Honolulu",
                                   mediaURL: "javascript:alert(1)", latitude: 21.31, longitude: -157.86),
            ownerKey: nil, in: .default, now: 1_000_000_000_000)
        // A class list's student who has no account yet.
        try await store.addPendingMember(email: "late@example.com", to: .default, role: .student, now: 7)
        // The moderation record: a report, an admin's hiding of the pin (audited), a reset link.
        _ = try await store.insertReport(objectId: legacy.objectId, in: .default, reporterKey: zoë.key, reason: .spam, now: 1_700_000_000_002)
        let audit = AuditEntry(at: 1_700_000_000_003, actorKey: admin.key, actorEmail: admin.email, action: .hideLocation,
                               target: legacy.objectId, detail: "Honolulu, by ")
        _ = try await store.setHidden(objectId: legacy.objectId, hiddenAt: 1_700_000_000_003, audit: audit)
        try await store.insertPasswordReset(tokenHash: "r1", accountKey: zoë.key, now: 5, expiresAt: 9_999_999_999_999,
                                            audit: AuditEntry(at: 6, actorKey: admin.key, actorEmail: admin.email, action: .issuePasswordReset, target: zoë.key, detail: zoë.email))
        // LTI: a platform with its deployment, the tool's key, a platform course linked to a course.
        let platform = try await store.addPlatform(LTIPlatform(
            issuer: "https://lms.example.edu", clientID: "c1", name: "LMS", authorizationURL: "https://lms.example.edu/auth",
            jwksURL: "https://lms.example.edu/jwks", tokenURL: "https://lms.example.edu/token", deploymentIDs: ["d1"], createdAt: 8))
        _ = try await store.addFirstToolKey(LTIToolKey(kid: "k1", sealedPrivateKey: "c2VhbGVk", createdAt: 9))
        _ = try await store.link(platform: platform.id, context: "ctx", to: .default)
        return source
    }

    @Test func aRoundTripThroughTheEngineUnderTestGivesBackTheSameRows() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try await seededSource(at: directory.appendingPathComponent("source.sqlite").path)
        var back = SQLiteDatabaseFile.Options()
        back.readBudget = .seconds(600)
        let returned = try await SQLiteDatabaseFile.open(path: directory.appendingPathComponent("back.sqlite").path, options: back, logger: .quiet)
        try await TestDatabase.withFresh { temporary in
            let middle = try await temporary.open()
            let there = try await DataCopy.run(from: source.store, to: middle.store, replace: false, pageSize: 2)
            let home = try await DataCopy.run(from: middle.store, to: returned.store, replace: false, pageSize: 2)
            #expect(there.map(\.rows) == [2, 1, 2, 1, 3, 2, 2, 1, 2, 1, 1, 1, 1, 1])
            #expect(there == home)
            #expect(try await middle.store.auditLog(limit: 10, before: nil, in: nil) == source.store.auditLog(limit: 10, before: nil, in: nil))
            #expect(try await middle.store.reports(openOnly: false, limit: 10, in: nil) == source.store.reports(openOnly: false, limit: 10, in: nil))
            // Read through the store, not only the checksum: every field, and the kept count.
            let all = LocationQuery(limit: 100, order: [SortKey(.objectId, descending: false)], includeCount: true)
            #expect(try await returned.store.locations(all, in: .default) == source.store.locations(all, in: .default))
            #expect(try await middle.store.locations(all, in: .default) == source.store.locations(all, in: .default))
            #expect(try await returned.store.allAccounts() == source.store.allAccounts())
            #expect(try await middle.store.account(email: "root@example.com")?.isAdmin == true)
            #expect(try await middle.store.account(sessionTokenHash: "t1", now: 10) != nil)
            let zoëKey = try #require(try await returned.store.account(email: "zoe@example.com")).key
            #expect(try await returned.store.identities(accountKey: zoëKey) == source.store.identities(accountKey: zoëKey))
            #expect(try await returned.store.identities(accountKey: zoëKey).count == 3)
            #expect(try await middle.store.account(provider: "school", subject: "B-sub")?.email == "zoe@example.com")
            // The target numbers what comes next after what was copied.
            let pins = try await middle.store.locationsForAdmin(hiddenOnly: true, limit: 1, skip: 0)
            let next = try await middle.store.setHidden(
                objectId: pins[0].location.objectId, hiddenAt: nil,
                audit: AuditEntry(at: 7, actorKey: nil, actorEmail: "x@example.com", action: .showLocation, target: "t", detail: "d"))
            #expect(next?.isHidden == false)
            #expect(try await middle.store.auditLog(limit: 1, before: nil, in: nil).first?.id == 3)
            try await middle.close()
        }
        try await source.close()
        try await returned.close()
    }

    @Test func aTargetThatHoldsDataIsRefusedUnlessReplaced() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try await seededSource(at: directory.appendingPathComponent("source.sqlite").path)
        try await TestDatabase.withFresh { temporary in
            let target = try await temporary.open()
            let stranger = try await target.store.newAccount("Stranger")
            try await target.store.pin(stranger, at: "Elsewhere")
            await #expect(throws: DataCopy.Failure.targetNotEmpty(counts: [
                "accounts": 1, "courses": 1, "course_members": 1, "course_pending_members": 0, "account_identities": 0, "sessions": 0, "student_locations": 1, "reports": 0, "audit_log": 0, "password_resets": 0,
                "lti_platforms": 0, "lti_deployments": 0, "lti_tool_keys": 0, "lti_contexts": 0,
            ])) {
                try await DataCopy.run(from: source.store, to: target.store, replace: false)
            }
            #expect(try await target.store.account(key: stranger.key) != nil, "a refused copy changes nothing")
            let reports = try await DataCopy.run(from: source.store, to: target.store, replace: true)
            #expect(reports.map(\.rows) == [2, 1, 2, 1, 3, 2, 2, 1, 2, 1, 1, 1, 1, 1])
            #expect(try await target.store.account(key: stranger.key) == nil)
            // The target's log starts a new epoch. Its events described the
            // replaced data; one `reload` takes their place, and the pruning mark is at it, so
            // that a stream resuming from any earlier id reloads.
            try await target.store.waitUntilEventsAreFinal()
            let log = try await target.store.locationEvents(after: 0, limit: 10)
            #expect(log.map(\.kind) == [.reload])
            #expect(try await target.store.locationEventsPrunedThrough() == log.first?.id)
            try await target.close()
        }
        try await source.close()
    }
}
