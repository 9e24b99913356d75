import Foundation
import NIOConcurrencyHelpers
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// Every location change is recorded, by the transaction that makes it, with an id in
/// commit order, so that the live map can stream them and a client can ask for what it missed.
@Suite struct LocationEventLogTests {
    /// Each change replaces the pin's earlier events, so the log holds each pin's newest.
    @Test func everyKindOfChangeIsRecordedWithTheLocationAsTheListShowsIt() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let ada = try await store.newAccount("Ada")
            func logged() async throws -> [LocationEvent] {
                try await store.waitUntilEventsAreFinal()
                return try await store.locationEvents(after: 0, limit: 100)
            }
            let created = try await store.pin(ada, at: "London")
            let first = try await logged()
            #expect(first.map(\.kind) == [.created] && first.map(\.payload) == [LocationJSON.object(created)])
            let overwritten = try await store.pin(ada, at: "Paris")
            let second = try await logged()
            #expect(second.map(\.kind) == [.updated] && second.map(\.payload) == [LocationJSON.object(overwritten)])
            #expect(second[0].objectId == created.objectId && second[0].id > first[0].id)
            #expect(try await store.updateLocation(objectId: "nonexistent", in: .default, with: LocationFields(mapString: "X"), now: 1) == nil)
            #expect(try await store.deleteAccount(key: ada.key))
            let third = try await logged()
            #expect(third.map(\.kind) == [.deleted] && third.map(\.payload) == [nil] && third[0].objectId == created.objectId)
            #expect(third[0].id > second[0].id)
            #expect(try await store.locationEvents(after: first[0].id, limit: 1).map(\.id) == [third[0].id])
            #expect(try await store.locationEventRange() == third[0].id...third[0].id)
            try await database.close()
        }
    }

    /// A database from before keeps every pin's old events; migrating it leaves each
    /// pin's newest (and the reloads), so nothing taken down before the upgrade stays in the log.
    @Test func migratingKeepsEachPinsNewestEventOnly() async throws {
        try await TestDatabase.withFresh { temporary in
            let before = try await temporary.open()
            let ada = try await before.store.newAccount("Ada")
            let pin = try await before.store.pin(ada, at: "Exact street address")
            try await before.store.waitUntilEventsAreFinal()
            let start = try #require(try await before.store.locationEventRange()).upperBound
            // As the previous version left the log: the pin's events one after another.
            let at = WallClock.system.nowMillis()
            for (kind, payload) in [("updated", "{\"mapString\":\"Another exact address\"}"), ("deleted", nil)] as [(String, String?)] {
                try await before.store.writer.run(SQLQueryString("""
                    INSERT INTO location_events (id, kind, object_id, payload, at)
                    VALUES ((SELECT MAX(id) + 1 FROM location_events), \(bind: kind), \(bind: pin.objectId), \(bind: payload), \(bind: at))
                    """))
            }
            // Migration 12 once more, as on a database of the previous version.
            try await before.store.writer.run(SQLQueryString("DROP INDEX location_events_by_object"))
            let migration = try #require(Schema.migrations.first { $0.version == 12 })
            for statement in migration.statements(before.store.flavour) {
                try await before.store.writer.run(SQLQueryString(statement))
            }
            try await before.close()
            let after = try await temporary.open()
            let kept = try await after.store.writer.run(SQLQueryString("SELECT kind, payload FROM location_events WHERE object_id = \(bind: pin.objectId)"))
            #expect(try kept.map { try $0.decode(column: "kind", as: String.self) } == ["deleted"])
            #expect(try await after.store.locationEvents(after: 0, limit: 10).map(\.kind) == [.deleted])
            #expect(try #require(try await after.store.locationEventRange()).upperBound > start)
            try await after.close()
        }
    }

    @Test func pruningKeepsTheNewestEvent() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            #expect(try await store.locationEventRange() == nil)
            let (owner, other) = (try await store.newAccount("Old"), try await store.newAccount("Other"))
            try await store.pin(owner, at: "One")
            try await store.pin(other, at: "Two")
            try await store.waitUntilEventsAreFinal()
            let (first, last) = try #require(try await store.locationEventRange()).bounds
            #expect(try await store.locationEventsPrunedThrough() < first)
            #expect(try await store.deleteLocationEvents(before: WallClock.system.nowMillis() + 60_000) == 1)
            #expect(try await store.locationEventsPrunedThrough() == first, "a reader at the pruned event has missed none")
            let afterPruning = try await store.locationEventRange()
            #expect(afterPruning == last...last)
            try await store.pin(owner, at: "Three")
            try await store.waitUntilEventsAreFinal()
            let next = try await store.locationEvents(after: last, limit: 10)
            #expect(next.count == 1 && next[0].id > last, "ids are never reused: \(next.map(\.id)) after \(last)")
            try await database.close()
        }
    }

    /// Two instances writing at once while a reader tails the log: reading "after the last id seen"
    /// again and again sees every event, once, in the log's order. Were an id to appear after a
    /// larger one had been read (a later commit of an earlier-numbered event), the tail would skip it.
    @Test func aTailingReaderNeverSkipsAnEvent() async throws {
        try await TestDatabase.withFresh { temporary in
            let instances = [try await temporary.open(), try await temporary.open()]
            let accounts = try await withThrowingTaskGroup(of: Account.self) { group in
                for index in 0..<40 { group.addTask { try await instances[index % 2].store.newAccount("W\(index)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try await instances[0].store.waitUntilEventsAreFinal()
            let start = try await instances[0].store.locationEventRange()?.upperBound ?? 0
            let writing = NIOLockedValueBox(true)
            let tail = Task {
                var last = start
                var seen: [Int64] = []
                var finalRead = false
                while !finalRead {
                    // One more read once the writers are done: then everything has committed.
                    finalRead = !writing.withLockedValue { $0 }
                    for event in try await instances[0].store.locationEvents(after: last, limit: 1000) {
                        seen.append(event.id)
                        last = event.id
                    }
                }
                return seen
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
            try await instances[0].store.waitUntilEventsAreFinal()
            writing.withLockedValue { $0 = false }
            let seen = try await tail.value
            // Each pin's newest event is kept: the tail saw every one of them, and every
            // event it saw came in increasing order (those replaced since need not be in the log).
            let logged = try await instances[1].store.locationEvents(after: start, limit: 1000).map(\.id)
            #expect(logged.count == accounts.count)
            #expect(Set(logged).isSubset(of: Set(seen)))
            #expect(seen == seen.sorted() && Set(seen).count == seen.count)
            for instance in instances { try await instance.close() }
        }
    }

    /// PostgreSQL: a location write does not wait for another one's commit. One write is held
    /// inside its transaction, after recording its event (a trigger makes it wait for a lock the
    /// test holds); a second student's write commits meanwhile. Its event is not final until the
    /// first write ends, so a tailing reader is told it is held back, then gets both in order.
    @Test(.enabled(if: TestEngine.current == .postgres)) func locationWritesCommitWithoutWaitingForEachOther() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let lockKey = Int32.random(in: 1_000_000...Int32.max)
            try await store.writer.run(SQLQueryString("""
                CREATE FUNCTION hold_slow_events() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.payload LIKE '%Slowly%' THEN PERFORM pg_advisory_xact_lock(\(unsafeRaw: "\(lockKey)")); END IF;
                    RETURN NEW;
                END $$
                """))
            try await store.writer.run(SQLQueryString(
                "CREATE TRIGGER hold_slow_events BEFORE INSERT ON location_events FOR EACH ROW EXECUTE FUNCTION hold_slow_events()"))
            let (slowStudent, quickStudent) = (try await store.newAccount("Slow"), try await store.newAccount("Quick"))
            // Overwrites, as students moving their pins make (a first pin also counts the table's
            // rows, on one row that every first pin updates).
            try await store.pin(slowStudent, at: "Here")
            try await store.pin(quickStudent, at: "There")
            try await store.waitUntilEventsAreFinal()
            let before = try await store.locationEventRange()?.upperBound ?? 0

            let (slowWrite, quick) = try await temporary.holdingAdvisoryLock(lockKey) {
                let slowWrite = Task { try await store.pin(slowStudent, at: "Slowly") }
                while try await store.reader.raw("""
                    SELECT COUNT(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = \(bind: Int64(lockKey))
                    """).first()?.decode(column: "waiting", as: Int.self) == 0 {
                    try await Task.sleep(for: .milliseconds(10))
                }
                let quick = try await withThrowingTaskGroup(of: StudentLocation?.self) { group in
                    group.addTask { try await store.pin(quickStudent, at: "Quickly") }
                    group.addTask { try await Task.sleep(for: .seconds(20)); return nil }
                    defer { group.cancelAll() }
                    return try await group.next()!
                }
                #expect(quick != nil, "the second write committed while the first was still in its transaction")
                let meanwhile = try await store.locationEventBatch(after: before, limit: 10, in: nil)
                #expect(meanwhile.events.isEmpty && meanwhile.heldBack, "the second write's event waits for the first write to end")
                return (slowWrite, quick)
            }
            let slow = try await slowWrite.value
            try await store.waitUntilEventsAreFinal()
            let after = try await store.locationEventBatch(after: before, limit: 10, in: nil)
            #expect(after.events.map(\.objectId) == [slow.objectId, quick?.objectId])
            #expect(!after.heldBack)
            try await database.close()
        }
    }
}

extension ClosedRange {
    var bounds: (Bound, Bound) { (lowerBound, upperBound) }
}
