import Foundation
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// Sessions kept in memory by one instance (`SessionCache`, PostgreSQL) are dropped when another
/// instance on the same database ends or changes them: a session revoked on instance A is refused
/// on instance B as soon as A's notification arrives (well within `SessionCache.lifetime`), and B
/// keeps nothing while its change channel is lost. On SQLite nothing is kept, and every rule holds
/// at once.
@Suite struct SessionsAcrossInstancesTests {
    /// Far within the lifetime: what is dropped here was dropped by the notification, not by age.
    static let bound: Duration = .seconds(3)

    /// A and B on one fresh database, each listening on its change channel; `body` gets a
    /// student's session token hash made on A and B's store, and can stop B's listening.
    static func withTwoInstances(_ body: @Sendable (_ a: SQLStore, _ b: SQLStore, _ stopListening: @Sendable () async -> Void) async throws -> Void) async throws {
        try await TestDatabase.withFresh { temporary in
            let a = try await temporary.open(), b = try await temporary.open()
            let watches = [a, b].map { instance in Task { try await instance.watchExternalWrites(every: .milliseconds(20)) } }
            if let cache = b.store.sessionCache {
                for _ in 0..<500 where !cache.isListening { try await Task.sleep(for: .milliseconds(10)) }
                #expect(cache.isListening)
            }
            do {
                try await body(a.store, b.store) {
                    watches[1].cancel()
                    _ = await watches[1].result
                }
            } catch {
                for watch in watches { watch.cancel() }
                try? await a.close(); try? await b.close()
                throw error
            }
            for watch in watches { watch.cancel() }
            try await a.close()
            try await b.close()
        }
    }

    /// A student with a live session made on `store`; returns the account and the token hash.
    static func student(on store: SQLStore, _ name: String) async throws -> (Account, String) {
        let account = try await store.newAccount(name)
        let hash = "hash-\(UUID().uuidString)"
        let now = WallClock.system.nowMicros()
        try await store.insertSession(SessionRecord(tokenHash: hash, accountKey: account.key, createdAt: now, expiresAt: now + 3_600_000_000))
        return (account, hash)
    }

    /// Polls `store` until the session is refused (nil), for at most `bound`.
    static func refusedSoon(_ hash: String, on store: SQLStore, in course: CourseID = .default) async throws -> Bool {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < bound {
            if try await store.session(tokenHash: hash, now: WallClock.system.nowMicros(), in: course) == nil { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func aLogoutOnOneInstanceIsRefusedOnTheOther() async throws {
        try await Self.withTwoInstances { a, b, _ in
            let (_, hash) = try await Self.student(on: a, "Leaving")
            #expect(try await b.session(tokenHash: hash, now: WallClock.system.nowMicros(), in: .default) != nil, "B knows it (and keeps it)")
            try await a.deleteSession(tokenHash: hash)
            #expect(try await Self.refusedSoon(hash, on: b))
            #expect(try await a.session(tokenHash: hash, now: WallClock.system.nowMicros(), in: .default) == nil, "at once on A")
        }
    }

    @Test func aDisabledAccountAndAResetPasswordAreRefusedOnTheOther() async throws {
        try await Self.withTwoInstances { a, b, _ in
            let (disabled, first) = try await Self.student(on: a, "Disabled")
            let (reset, second) = try await Self.student(on: a, "Reset")
            for hash in [first, second] { #expect(try await b.session(tokenHash: hash, now: WallClock.system.nowMicros(), in: .default) != nil) }
            let audit = AuditEntry(at: 1, actorKey: nil, actorEmail: "admin@example.com", action: .disableAccount, target: disabled.key, detail: "")
            _ = try await a.setDisabled(key: disabled.key, disabledAt: WallClock.system.nowMillis(), audit: audit)
            #expect(try await Self.refusedSoon(first, on: b))
            let resetAudit = AuditEntry(at: 1, actorKey: nil, actorEmail: "admin@example.com", action: .issuePasswordReset, target: reset.key, detail: "")
            try await a.insertPasswordReset(tokenHash: "reset", accountKey: reset.key, now: 1, expiresAt: .max, audit: resetAudit)
            #expect(try await a.redeemPasswordReset(tokenHash: "reset", newPasswordHash: "new", now: 2) == reset.key)
            #expect(try await Self.refusedSoon(second, on: b))
        }
    }

    /// A role given on A shows on B; a role taken away, too.
    @Test func aMembershipChangedOnOneInstanceShowsOnTheOther() async throws {
        try await Self.withTwoInstances { a, b, _ in
            let (student, hash) = try await Self.student(on: a, "Member")
            let cs101 = try await a.newCourse("cs101")
            #expect(try await b.session(tokenHash: hash, now: WallClock.system.nowMicros(), in: cs101)?.courseRole == nil)
            #expect(try await a.setMember(student.key, of: cs101, role: .student, now: 1))
            let start = ContinuousClock.now
            var role: CourseRole?
            while role == nil, ContinuousClock.now - start < Self.bound {
                role = try await b.session(tokenHash: hash, now: WallClock.system.nowMicros(), in: cs101)?.courseRole
                if role == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(role == .student)
        }
    }

    /// Without its change channel B cannot hear revocations: it keeps nothing, and a session
    /// deleted behind every instance's back (by hand, no notification) is refused on B at once.
    @Test func anInstanceWithoutItsChannelKeepsNothing() async throws {
        try await Self.withTwoInstances { a, b, stopListening in
            let (_, hash) = try await Self.student(on: a, "Unheard")
            #expect(try await b.session(tokenHash: hash, now: WallClock.system.nowMicros(), in: .default) != nil)
            if b.sessionCache != nil {
                // While listening, B answers a session deleted unannounced from memory: for at most the lifetime.
                let (_, unannounced) = try await Self.student(on: a, "Kept")
                #expect(try await b.session(tokenHash: unannounced, now: WallClock.system.nowMicros(), in: .default) != nil)
                try await a.writer.run(SQLQueryString("DELETE FROM sessions WHERE token_hash = \(bind: unannounced)"))
                #expect(try await b.session(tokenHash: unannounced, now: WallClock.system.nowMicros(), in: .default) != nil, "kept")
            }
            await stopListening()
            #expect(b.sessionCache?.isListening != true)
            // A write that announces nothing: as an operator's SQL would.
            try await a.writer.run(SQLQueryString("DELETE FROM sessions WHERE token_hash = \(bind: hash)"))
            #expect(try await b.session(tokenHash: hash, now: WallClock.system.nowMicros(), in: .default) == nil)
        }
    }
}
