import Foundation
import NIOConcurrencyHelpers
import OnTheMapModel
@testable import OnTheMapSQLite
@testable import OnTheMapStore
import SQLKit
import OnTheMapTestSupport
import Testing

/// Every write goes through one writer that answers only after commit, batches concurrent
/// writes with a savepoint each (SQLite), and announces what changed; the same on
/// PostgreSQL, where another instance's writes arrive by notification.
@Suite struct WritePathTests {
    static var onSQLite: Bool { TestEngine.current == .sqlite }

    @Test(.enabled(if: onSQLite)) func theWriterIsDurableAndTheFileIsInWALMode() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open() as! SQLiteDatabaseFile
            let (synchronous, journal) = try await database.pool.writeWithoutTransaction { db in
                (try Int.fetchOne(db, sql: "PRAGMA synchronous"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
            }
            #expect(synchronous == 2, "synchronous=FULL")
            #expect(journal == "wal")
            try await database.close()
        }
    }

    /// Many students create, overwrite, move and delete at once; afterwards a second opening of the
    /// file (other connections, as after a restart) holds exactly what was acknowledged.
    @Test func overlappingWritesAreAllReadBackFromASecondConnection() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let statistics = { (database as? SQLiteDatabaseFile)?.writer.statistics.writes ?? 0 }
            let writesBefore = statistics()
            let expected = try await withThrowingTaskGroup(of: (String, StudentLocation?).self) { group in
                for student in 0..<40 {
                    group.addTask {
                        let account = try await store.newAccount("S\(student)")
                        var pin = try await store.pin(account, at: "First \(student)")
                        pin = try await store.pin(account, at: "Second \(student)")
                        if student % 3 == 0 {
                            pin = try #require(try await store.updateLocation(
                                objectId: pin.objectId, in: .default, with: LocationFields(mapString: "Moved \(student)"), now: WallClock.system.nowMillis()))
                        }
                        if student % 4 == 0 {
                            #expect(try await store.deleteLocation(objectId: pin.objectId, in: .default))
                            return (account.key, nil)
                        }
                        return (account.key, pin)
                    }
                }
                var expected: [String: StudentLocation?] = [:]
                for try await (key, pin) in group { expected[key] = pin }
                return expected
            }
            let writes = statistics() - writesBefore
            try await database.close()

            let reopened = try await temporary.open()
            for (key, pin) in expected {
                #expect(try await reopened.store.location(ownerKey: key, in: .default)?.location == pin)
            }
            let all = try await reopened.store.locations(LocationQuery(limit: 1000, includeCount: true), in: .default)
            #expect(all.count == expected.values.compactMap { $0 }.count)
            if Self.onSQLite {
                // 40 accounts, 80 saves, 14 moves, 10 deletes: each answered by the one writer.
                #expect(writes == 40 + 80 + 14 + 10)
            }
            try await reopened.close()
        }
    }

    /// Writes queued together commit in one transaction; the one that breaks a constraint gets its
    /// own error and leaves no trace, the others are stored.
    @Test(.enabled(if: onSQLite)) func aFailingWriteInABatchRollsBackAloneAndTheOthersCommit() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open() as! SQLiteDatabaseFile
            let store = database.store
            let owners = [try await store.newAccount("A"), try await store.newAccount("B")]
            let taken = owners[0].email
            let before = database.writer.statistics.batches
            database.writer.hold()
            async let first = store.pin(owners[0], at: "Lisbon")
            let clash = Task {
                try await store.insertAccount(Account(
                    key: "999999999", email: taken, firstName: "X", lastName: "Y", passwordHash: "h", isAdmin: false, createdAt: 0))
            }
            async let second = store.pin(owners[1], at: "Porto")
            while database.writer.pendingCount < 3 { try await Task.sleep(for: .milliseconds(1)) }
            database.writer.release()
            let (lisbon, porto) = try await (first, second)
            await #expect(throws: StoreError.emailTaken) { try await clash.value }
            #expect(database.writer.statistics.batches == before + 1, "the three writes shared one transaction")
            #expect(try await store.location(objectId: lisbon.objectId)?.location == lisbon)
            #expect(try await store.location(objectId: porto.objectId)?.location == porto)
            #expect(try await store.account(key: "999999999") == nil)
            try await database.close()
        }
    }

    @Test func everyKindOfLocationChangeIsAnnouncedInCommitOrder() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let seen = NIOLockedValueBox<[LocationChange]>([])
            store.changes.subscribe { change in seen.withLockedValue { $0.append(change) } }
            let ada = try await store.newAccount("Ada")
            let created = try await store.pin(ada, at: "London")
            let overwritten = try await store.pin(ada, at: "Paris")
            let moved = try #require(try await store.updateLocation(
                objectId: created.objectId, in: .default, with: LocationFields(mapString: "Rome"), now: WallClock.system.nowMillis()))
            #expect(try await store.deleteLocation(objectId: created.objectId, in: .default))
            #expect(try await !store.deleteLocation(objectId: created.objectId, in: .default))
            let again = try await store.pin(ada, at: "Oslo")
            #expect(try await store.deleteAccount(key: ada.key))
            let changes = seen.withLockedValue { $0 }
            #expect(changes.map(\.kind) == [
                .created(created, in: .default), .updated(overwritten, in: .default), .updated(moved, in: .default),
                .deleted(objectId: created.objectId, in: .default), .created(again, in: .default), .deleted(objectId: again.objectId, in: .default),
            ])
            #expect(changes.map(\.sequence) == Array(1...6))
            try await database.close()
        }
    }

    /// Another process's commit (here a second opening of the database: the CLI, or another server
    /// instance) is announced: as `.unknown` on SQLite, which sees the file change, and on
    /// PostgreSQL as a change in the course the other instance's notification names. The
    /// instance's own writes are not announced twice.
    @Test func writesByAnotherProcessAreNoticed() async throws {
        try await TestDatabase.withFresh { temporary in
            let server = try await temporary.open()
            let cli = try await temporary.open()
            let others = NIOLockedValueBox<[LocationChange.Kind]>([])
            server.store.changes.subscribe { change in
                switch change.kind {
                case .unknown, .elsewhere: others.withLockedValue { $0.append(change.kind) }
                default: break
                }
            }
            let watch = Task { try await server.watchExternalWrites(every: .milliseconds(10)) }
            // The watcher starts watching at some point after starting: write until it has seen one
            // (the first write after that is enough).
            for attempt in 0..<500 where others.withLockedValue({ $0.isEmpty }) {
                try await cli.store.pin(try await cli.store.newAccount("C\(attempt)"), at: "Elsewhere")
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(!others.withLockedValue { $0.isEmpty })
            try await Task.sleep(for: .milliseconds(200))
            if temporary.engine == .postgres {
                // The notification names the course: here a second one.
                let course = try await cli.store.newCourse("elsewhere")
                others.withLockedValue { $0 = [] }
                try await cli.store.pin(try await cli.store.newAccount("D"), at: "Over there", in: course)
                for _ in 0..<100 where others.withLockedValue({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
                #expect(others.withLockedValue { $0 } == [.elsewhere(in: course)])
            }
            let before = others.withLockedValue { $0.count }
            try await server.store.pin(try await server.store.newAccount("Own"), at: "Here")
            try await Task.sleep(for: .milliseconds(300))
            #expect(others.withLockedValue { $0.count } == before, "the server's own write came back as another's")
            watch.cancel()
            try await cli.close()
            try await server.close()
        }
    }

    /// Two instances starting at once on a new database apply each migration exactly once.
    @Test func twoInstancesStartingAtOnceMigrateOnce() async throws {
        try await TestDatabase.withFresh { temporary in
            async let first = temporary.open()
            async let second = temporary.open()
            let (a, b) = try await (first, second)
            let versions = try await a.store.reader.raw("SELECT version FROM schema_migrations ORDER BY version").all()
                .map { try $0.decode(column: "version", as: Int.self) }
            #expect(versions == Schema.migrations.map(\.version))
            try await b.store.pin(try await b.store.newAccount("B"), at: "Somewhere")
            #expect(try await a.store.locations(LocationQuery(includeCount: true), in: .default).count == 1)
            try await a.close()
            try await b.close()
        }
    }
}
