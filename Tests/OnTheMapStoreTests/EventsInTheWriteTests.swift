import Foundation
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// On PostgreSQL a pin is saved (or deleted) and its event recorded in one statement,
/// with the two values an overwrite keeps, objectId and createdAt, written into the event's JSON by
/// the database (`LocationWriteSQL`). The event must still be exactly what the list shows.
@Suite struct EventsInTheWriteTests {
    /// Pins imported with the objectIds and createdAts an import can bring (characters JSON must
    /// escape, any script, years from 0 to 10000), then overwritten by their owners, updated
    /// whole and in part, and deleted.
    @Test func theEventOfAnOverwriteIsTheListsJSONOfThePin() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let odd: [(objectId: String, createdAt: Int64)] = [
                (#"quote"and\back"#, 0), ("tab\tnew\nline\u{1}", -1), ("Zürich-東京-🗺", -62_167_219_200_000),
                ("plain", -62_135_596_800_001), ("future", 253_402_300_800_000), ("now", WallClock.system.nowMillis()),
            ]
            var owners: [Account] = []
            for (objectId, createdAt) in odd {
                // Names the database must escape as the list does when it writes them into an event itself.
                let owner = try await store.createAccount(
                    email: "odd-\(UUID().uuidString.prefix(8))@example.com", firstName: "Ödd \"q\"\\ \u{1}\u{1F}", lastName: "Tab\tNew\nLine\r\u{8}\u{C}",
                    passwordHash: "not-a-real-hash", isAdmin: false)
                owners.append(owner)
                _ = try await store.importLocations([StudentLocation(
                    objectId: objectId, uniqueKey: owner.key, firstName: "F", lastName: "L", mapString: "Old",
                    mediaURL: "https://example.com", latitude: 1, longitude: 2, createdAt: createdAt, updatedAt: createdAt)])
            }
            /// The events recorded by what `body` writes (each pin's newest only).
            func recorded(by body: () async throws -> Void) async throws -> [LocationEvent] {
                try await store.waitUntilEventsAreFinal()
                let mark = try #require(try await store.locationEventRange()).upperBound
                try await body()
                try await store.waitUntilEventsAreFinal()
                return try await store.locationEvents(after: mark, limit: 100)
            }
            var saved: [StudentLocation] = []
            let overwrites = try await recorded {
                for owner in owners { saved.append(try await store.pin(owner, at: "Überall \"new\"\\ \u{7}")) }
            }
            #expect(zip(saved, odd).allSatisfy { $0.objectId == $1.objectId && $0.createdAt == $1.createdAt })
            // An update of every field (the old apps' PUT) and one of a single field.
            var updated: [StudentLocation] = []
            let updates = try await recorded {
                for location in saved {
                    let every = LocationFields(uniqueKey: location.uniqueKey, firstName: "Ünï \"c\"", lastName: location.lastName, mapString: "Put",
                                               mediaURL: location.mediaURL, latitude: -12.5, longitude: 1e-7)
                    updated.append(try #require(try await store.updateLocation(objectId: location.objectId, in: .default, with: every, now: WallClock.system.nowMillis())))
                }
            }
            // The owner's PUT: the names stay the account's, whatever the body says, and the event
            // carries them as the row has them.
            var ownPuts: [StudentLocation] = []
            let ownerUpdates = try await recorded {
                for (location, owner) in zip(updated, owners) {
                    let body = LocationFields(uniqueKey: "someone", firstName: "Not", lastName: "Me", mapString: "Mine", mediaURL: "https://example.com/mine",
                                              latitude: 45.125, longitude: -0.0)
                    let right = LocationWriteRight(accountKey: owner.key, isAdmin: false, ownerlessPins: false)
                    let outcome = try await store.updateLocation(
                        objectId: location.objectId, in: .default, with: body, now: WallClock.system.nowMillis(), heldForApproval: false, by: right)
                    ownPuts.append(try #require(outcome.written))
                }
            }
            #expect(zip(ownPuts, owners).allSatisfy { $0.uniqueKey == $1.key && $0.firstName == $1.firstName && $0.lastName == $1.lastName })
            var one: StudentLocation?
            let partial = try await recorded {
                one = try await store.updateLocation(objectId: saved[0].objectId, in: .default, with: LocationFields(mapString: "Partly"), now: WallClock.system.nowMillis())
            }
            let deletions = try await recorded {
                for location in saved { _ = try await store.deleteLocation(objectId: location.objectId, in: .default) }
            }
            var fresh: StudentLocation?
            let creation = try await recorded { fresh = try await store.pin(try await store.newAccount("New"), at: "Lima") }
            let n = odd.count
            for (events, kind, locations) in [(overwrites, LocationEvent.Kind.updated, saved), (updates, .updated, updated), (ownerUpdates, .updated, ownPuts),
                                              (partial, .updated, [try #require(one)]), (creation, .created, [try #require(fresh)])] {
                #expect(events.map(\.kind) == Array(repeating: kind, count: locations.count))
                #expect(events.map(\.objectId) == locations.map(\.objectId))
                #expect(events.map(\.payload) == locations.map { LocationJSON.object($0) })
            }
            #expect(deletions.map(\.kind) == Array(repeating: .deleted, count: n))
            #expect(deletions.map(\.objectId) == saved.map(\.objectId) && deletions.allSatisfy { $0.payload == nil })
            try await database.close()
        }
    }

    /// A pin an admin has hidden is overwritten silently, as before: no event gives it away.
    @Test func overwritingAHiddenPinRecordsNoEvent() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let owner = try await store.newAccount("Hidden")
            let pin = try await store.pin(owner, at: "Seen")
            let audit = AuditEntry(at: 2_000, actorKey: nil, actorEmail: "admin@example.com", action: .hideLocation, target: pin.objectId, detail: "")
            _ = try await store.setHidden(objectId: pin.objectId, hiddenAt: 2_000, audit: audit)
            try await store.waitUntilEventsAreFinal()
            let before = try #require(try await store.locationEventRange()).upperBound
            try await store.pin(owner, at: "Unseen")
            try await store.waitUntilEventsAreFinal()
            #expect(try await store.locationEvents(after: before, limit: 10).isEmpty)
            try await database.close()
        }
    }

    /// `wire_time` (migration 11) formats milliseconds as `WireTime` does, over the whole range an
    /// import can bring and beyond: each edge of the calendar's cycles, and random instants.
    @Test func theDatabaseWritesTimesAsTheWireDoes() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            guard store.writesEventsInStatements else { return try await database.close() }
            var generator = SystemRandomNumberGenerator()
            let day: Int64 = 86_400_000
            var instants: [Int64] = [0, -1, 1, 999, 1_000, -999, -1_000, -1_001, 951_782_400_000, 951_868_800_000, 4_107_542_400_000]
            for year0 in [-62_167_219_200_000, -62_135_596_800_000, 253_402_300_800_000, -210_866_803_200_000] as [Int64] {
                instants += [year0 - day, year0 - 1, year0, year0 + 1, year0 + 59 * day]
            }
            instants += (0..<300).map { _ in Int64.random(in: -70_000_000_000_000...300_000_000_000_000, using: &generator) }
            let list = SQLList(instants.map { SQLBind($0) })
            let rows = try await store.reader.raw("""
                SELECT millis, wire_time(millis) AS text FROM unnest(ARRAY[\(list)]::bigint[]) AS t(millis)
                """).all()
            #expect(rows.count == instants.count)
            for row in rows {
                let millis = try row.decode(column: "millis", as: Int64.self)
                #expect(try row.decode(column: "text", as: String.self) == WireTime.formatMillis(millis), "\(millis)")
            }
            try await database.close()
        }
    }
}
