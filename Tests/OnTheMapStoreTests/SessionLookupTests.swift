import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// A request's caller in one read: the account of a live session, nothing for an expired or
/// unknown one (one round trip fewer for every request that carries a session).
@Suite struct SessionLookupTests {
    @Test func aLiveSessionGivesItsAccountInOneRead() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let student = try await store.newAccount("Session")
            try await store.insertSession(SessionRecord(tokenHash: "live", accountKey: student.key, createdAt: 1, expiresAt: 2_000))
            try await store.insertSession(SessionRecord(tokenHash: "old", accountKey: student.key, createdAt: 1, expiresAt: 1_000))
            // The account as `account(key:)` reads it, which the caller was looked up by before.
            let stored = try #require(try await store.account(key: student.key))
            #expect(try await store.account(sessionTokenHash: "live", now: 1_500) == stored)
            #expect(try await store.account(sessionTokenHash: "live", now: 2_000) == nil, "expired at its expiry")
            #expect(try await store.account(sessionTokenHash: "old", now: 1_500) == nil)
            #expect(try await store.account(sessionTokenHash: "unknown", now: 1_500) == nil)
            try await database.close()
        }
    }

    /// A session also ends once unused past its idle bound, which its use moves on; the
    /// sweep deletes it then. A session from before the bound existed has none until it is used.
    @Test func aSessionUnusedPastItsIdleBoundHasEnded() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let student = try await store.newAccount("Idle")
            try await store.insertSession(SessionRecord(tokenHash: "idle", accountKey: student.key, createdAt: 1, expiresAt: 10_000, idleExpiresAt: 2_000))
            try await store.insertSession(SessionRecord(tokenHash: "older", accountKey: student.key, createdAt: 1, expiresAt: 10_000))
            #expect(try await store.session(tokenHash: "idle", now: 1_500, in: .default)?.idleExpiresAt == 2_000)
            #expect(try await store.session(tokenHash: "idle", now: 2_000, in: .default) == nil, "ended at its idle bound")
            try await store.extendSessionIdle(tokenHash: "idle", until: 5_000)
            #expect(try await store.session(tokenHash: "idle", now: 4_000, in: .default)?.account.key == student.key, "used: moved on")
            #expect(try await store.session(tokenHash: "older", now: 9_000, in: .default)?.idleExpiresAt == nil)
            #expect(try await store.deleteExpiredSessions(now: 6_000) == 1)
            #expect(try await store.session(tokenHash: "older", now: 6_000, in: .default) != nil)
            try await database.close()
        }
    }
}
