import Foundation
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// What several instances on one database must count together (rate limits) and do one
/// at a time (the sweep), on both engines; "two instances" are two openings of one database.
@Suite struct SharedStateTests {
    @Test func rateEventsAreCountedOverTheirWindowAndCanBeTakenBack() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            func admit(_ key: String = "10.0.0.1", at now: Int64) async throws -> RateAdmission {
                try await store.admitRateEvent(bucket: "login", key: key, limit: 2, windowMillis: 1000, now: now)
            }
            guard case .admitted(let first) = try await admit(at: 10_000) else { Issue.record("first refused"); return }
            guard case .admitted = try await admit(at: 10_400) else { Issue.record("second refused"); return }
            #expect(try await admit(at: 10_500) == .refused(oldestAt: 10_000))
            // Another key and another bucket count apart.
            guard case .admitted = try await admit("10.0.0.2", at: 10_500) else { Issue.record("other key refused"); return }
            guard case .admitted = try await store.admitRateEvent(bucket: "signup", key: "10.0.0.1", limit: 1, windowMillis: 1000, now: 10_500)
            else { Issue.record("other bucket refused"); return }
            // An event taken back frees its place; the window moves on.
            try await store.removeRateEvent(id: first)
            guard case .admitted = try await admit(at: 10_600) else { Issue.record("freed place refused"); return }
            #expect(try await admit(at: 10_700) == .refused(oldestAt: 10_400))
            guard case .admitted = try await admit(at: 11_400) else { Issue.record("the window did not move"); return }
            try await store.removeRateEvents(bucket: "login", key: "10.0.0.1")
            guard case .admitted = try await admit(at: 11_401) else { Issue.record("reset did not forget"); return }
            #expect(try await store.deleteRateEvents(before: 11_000) == 2, "the other key's and the other bucket's old events")
            try await database.close()
        }
    }

    /// Two instances hammering one key at once: exactly the limit is admitted.
    @Test func twoInstancesCountOneKeyTogether() async throws {
        try await TestDatabase.withFresh { temporary in
            let instances = [try await temporary.open(), try await temporary.open()]
            let now = WallClock.system.nowMillis()
            let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<40 {
                    let store = instances[attempt % 2].store
                    group.addTask {
                        if case .admitted = try await store.admitRateEvent(bucket: "login", key: "k", limit: 15, windowMillis: 60_000, now: now) {
                            return true
                        }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(admitted == 15)
            for instance in instances { try await instance.close() }
        }
    }

    @Test func aLeaseHasOneHolderUntilItExpires() async throws {
        try await TestDatabase.withFresh { temporary in
            let a = try await temporary.open()
            let b = try await temporary.open()
            #expect(try await a.store.acquireLease("sweep", holder: "A", now: 1000, until: 2000))
            #expect(try await !b.store.acquireLease("sweep", holder: "B", now: 1500, until: 2500))
            #expect(try await a.store.acquireLease("sweep", holder: "A", now: 1600, until: 2600), "the holder renews")
            #expect(try await !b.store.acquireLease("sweep", holder: "B", now: 2599, until: 3599))
            #expect(try await b.store.acquireLease("sweep", holder: "B", now: 2600, until: 3600), "expired: taken over")
            #expect(try await !a.store.acquireLease("sweep", holder: "A", now: 2700, until: 3700))
            try await a.close()
            try await b.close()
        }
    }
}
