import OnTheMapModel
@testable import OnTheMapStore
import Testing

/// The rules of `SessionCache` on their own: what is kept, for how long, and what drops it.
@Suite struct SessionCacheTests {
    static let account = Account(
        key: "10000001", email: "a@example.com", firstName: "A", lastName: "B", passwordHash: "x", isAdmin: false, createdAt: 0)

    static func session(idle: Int64? = 5_000, expires: Int64 = 10_000) -> LiveSession {
        LiveSession(account: account, idleExpiresAt: idle, expiresAt: expires)
    }

    /// A listening cache holding `session()` for token "t" in the default course.
    static func holding(_ session: LiveSession = session(), lifetime: Duration = .seconds(60)) -> SessionCache {
        let cache = SessionCache(lifetime: lifetime) { _ in }
        cache.listening(true)
        cache.keep(session, expiresAt: session.expiresAt!, tokenHash: "t", in: .default, readUnder: cache.ticket()!)
        return cache
    }

    @Test func aSessionIsAnsweredOnlyWhileLiveByItsBoundsAndTheLifetime() async throws {
        let cache = Self.holding()
        #expect(cache.session(tokenHash: "t", in: .default, now: 1_000) == Self.session())
        #expect(cache.session(tokenHash: "t", in: CourseID(rawValue: 2), now: 1_000) == nil, "kept per course")
        #expect(cache.session(tokenHash: "t", in: .default, now: 5_000) == nil, "past its idle bound: read again")
        let expiring = Self.holding(Self.session(idle: nil, expires: 3_000))
        #expect(expiring.session(tokenHash: "t", in: .default, now: 2_999) != nil)
        #expect(expiring.session(tokenHash: "t", in: .default, now: 3_000) == nil, "past its expiry: read again")
        let brief = Self.holding(lifetime: .milliseconds(50))
        try await Task.sleep(for: .milliseconds(100))
        #expect(brief.session(tokenHash: "t", in: .default, now: 1_000) == nil, "past the lifetime: read again")
    }

    @Test func nothingIsKeptWhileTheChannelIsNotListeningAndLosingItDropsAll() {
        let deaf = SessionCache { _ in }
        #expect(deaf.ticket() == nil, "before the channel listens")
        let cache = Self.holding()
        cache.listening(false)
        #expect(cache.session(tokenHash: "t", in: .default, now: 1_000) == nil)
        #expect(cache.ticket() == nil)
    }

    @Test func aReadThatBeganBeforeADropIsNotKept() {
        let cache = SessionCache { _ in }
        cache.listening(true)
        let ticket = cache.ticket()!
        cache.drop(accounts: ["someone else"])
        cache.keep(Self.session(), expiresAt: 10_000, tokenHash: "t", in: .default, readUnder: ticket)
        #expect(cache.session(tokenHash: "t", in: .default, now: 1_000) == nil)
    }

    @Test func aChangeDropsItsAccountsHereAndIsAnnounced() async {
        let announced = AnnouncedAccounts()
        let cache = SessionCache { accounts in await announced.add(accounts) }
        cache.listening(true)
        for (token, key) in [("t1", "10000001"), ("t2", "20000002")] {
            let account = Account(key: key, email: "\(key)@example.com", firstName: "A", lastName: "B", passwordHash: "x", isAdmin: false, createdAt: 0)
            cache.keep(LiveSession(account: account, idleExpiresAt: nil, expiresAt: 10_000), expiresAt: 10_000, tokenHash: token, in: .default, readUnder: cache.ticket()!)
        }
        await cache.changed(accounts: ["10000001"])
        #expect(cache.session(tokenHash: "t1", in: .default, now: 1) == nil)
        #expect(cache.session(tokenHash: "t2", in: .default, now: 1) != nil, "another account's session stays")
        #expect(await announced.all == [["10000001"]])
        cache.drop(accounts: nil)
        #expect(cache.session(tokenHash: "t2", in: .default, now: 1) == nil, "nil drops every account's")
    }

    @Test func movingTheIdleBoundOnHereIsKept() {
        let cache = Self.holding()
        cache.extendIdle(tokenHash: "t", until: 9_000)
        #expect(cache.session(tokenHash: "t", in: .default, now: 6_000)?.idleExpiresAt == 9_000)
    }
}

private actor AnnouncedAccounts {
    var all: [Set<String>?] = []
    func add(_ accounts: Set<String>?) { all.append(accounts) }
}
