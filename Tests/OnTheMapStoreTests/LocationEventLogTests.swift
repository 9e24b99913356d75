import Foundation
import NIOConcurrencyHelpers
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// Issue 11: every location change is recorded, by the transaction that makes it, with an id in
/// commit order, so that the live map can stream them and a client can ask for what it missed.
@Suite struct LocationEventLogTests {
    @Test func everyKindOfChangeIsRecordedWithTheLocationAsTheListShowsIt() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let ada = try await store.newAccount("Ada")
            let created = try await store.pin(ada, at: "London")
            let overwritten = try await store.pin(ada, at: "Paris")
            #expect(try await store.updateLocation(objectId: "nonexistent", with: LocationFields(mapString: "X"), now: 1) == nil)
            #expect(try await store.deleteAccount(key: ada.key))
            let events = try await store.locationEvents(after: 0, limit: 100)
            #expect(events.map(\.kind) == [.created, .updated, .deleted])
            #expect(events.map(\.objectId) == [created.objectId, created.objectId, created.objectId])
            #expect(events.map(\.payload) == [LocationJSON.object(created), LocationJSON.object(overwritten), nil])
            #expect(events.map(\.id) == events.map(\.id).sorted() && Set(events.map(\.id)).count == 3)
            #expect(try await store.locationEvents(after: events[0].id, limit: 1).map(\.id) == [events[1].id])
            #expect(try await store.locationEventRange() == events[0].id...events[2].id)
            try await database.close()
        }
    }

    @Test func pruningKeepsTheNewestEvent() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            #expect(try await store.locationEventRange() == nil)
            let owner = try await store.newAccount("Old")
            try await store.pin(owner, at: "One")
            try await store.pin(owner, at: "Two")
            let last = try #require(try await store.locationEventRange()).upperBound
            #expect(try await store.deleteLocationEvents(before: WallClock.nowMillis() + 60_000) == 1)
            #expect(try await store.locationEventRange() == last...last)
            try await store.pin(owner, at: "Three")
            #expect(try await store.locationEvents(after: last, limit: 10).map(\.id) == [last + 1], "ids are never reused")
            try await database.close()
        }
    }

    /// Two instances writing at once while a reader tails the log: every read of "after the last
    /// id seen" continues without a gap. Were ids not in commit order, a later-committing smaller
    /// id would show as a gap first (and be skipped by a tailing stream).
    @Test func aTailingReaderNeverSeesAGap() async throws {
        try await TestDatabase.withFresh { temporary in
            let instances = [try await temporary.open(), try await temporary.open()]
            let accounts = try await withThrowingTaskGroup(of: Account.self) { group in
                for index in 0..<40 { group.addTask { try await instances[index % 2].store.newAccount("W\(index)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let writing = NIOLockedValueBox(true)
            let tail = Task {
                var last: Int64 = 0
                var gaps = 0
                var seen = 0
                var finalRead = false
                while !finalRead {
                    // One more read once the writers are done: then everything has committed.
                    finalRead = !writing.withLockedValue { $0 }
                    for event in try await instances[0].store.locationEvents(after: last, limit: 1000) {
                        if event.id != last + 1 { gaps += 1 }
                        last = event.id
                        seen += 1
                    }
                }
                return (gaps, seen)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, account) in accounts.enumerated() {
                    let store = instances[index % 2].store
                    group.addTask {
                        for place in ["A", "B", "C"] { try await store.pin(account, at: place) }
                    }
                }
                try await group.waitForAll()
            }
            writing.withLockedValue { $0 = false }
            let (gaps, seen) = try await tail.value
            #expect(seen == 3 * accounts.count)
            #expect(gaps == 0)
            for instance in instances { try await instance.close() }
        }
    }
}
