import Foundation
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// The admin area's reports, on both engines.
@Suite struct ModerationStoreTests {
    /// A disabled account's pin leaves the public map with it (announced as a
    /// deletion), and comes back when the account is enabled again; a pin an admin hid on its own
    /// stays hidden.
    @Test func disablingAnAccountHidesItsPinUntilItIsEnabled() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let (troll, hiddenBefore) = (try await store.newAccount("Troll"), try await store.newAccount("Hidden"))
            let pin = try await store.pin(troll, at: "Trolling")
            let otherPin = try await store.pin(hiddenBefore, at: "Spam")
            func audit(_ action: AuditEntry.Action, _ target: String, at: Int64) -> AuditEntry {
                AuditEntry(at: at, actorKey: nil, actorEmail: "admin@example.com", action: action, target: target, detail: "")
            }
            _ = try await store.setHidden(objectId: otherPin.objectId, hiddenAt: 5_000, audit: audit(.hideLocation, otherPin.objectId, at: 5_000))
            func visible() async throws -> [String] {
                try await store.locations(LocationQuery(limit: 10, order: [SortKey(.mapString, descending: false)]), in: .default).results.map(\.mapString)
            }
            #expect(try await visible() == ["Trolling"])
            // From after the hiding's event, once final (see `waitUntilEventsAreFinal`).
            try await store.waitUntilEventsAreFinal()
            let start = try await store.locationEventRange()?.upperBound ?? 0

            for account in [troll, hiddenBefore] {
                _ = try await store.setDisabled(key: account.key, disabledAt: 6_000, audit: audit(.disableAccount, account.key, at: 6_000))
            }
            #expect(try await visible().isEmpty)
            #expect(try await store.location(objectId: pin.objectId)?.hiddenAt == 6_000)
            #expect(try await store.location(objectId: otherPin.objectId)?.hiddenAt == 5_000, "an earlier hiding is kept")

            try await store.waitUntilEventsAreFinal()
            let disabling = try await store.locationEvents(after: start, limit: 10)
            #expect(disabling.map(\.kind) == [.deleted] && disabling.allSatisfy { $0.objectId == pin.objectId })

            for account in [troll, hiddenBefore] {
                _ = try await store.setDisabled(key: account.key, disabledAt: nil, audit: audit(.enableAccount, account.key, at: 7_000))
            }
            #expect(try await visible() == ["Trolling"], "the pin the disabling hid is back; the one an admin hid is not")
            try await store.waitUntilEventsAreFinal()
            // The pin's newest event replaces its deletion.
            let events = try await store.locationEvents(after: start, limit: 10)
            #expect(events.map(\.kind) == [.created])
            #expect(events.allSatisfy { $0.objectId == pin.objectId } && events[0].id > disabling[0].id)
            try await database.close()
        }
    }

    /// Two admins, each on their own instance, demoting each other at the same moment: the second
    /// change waits for the first to commit (`SQLFlavour.takingTurns`; SQLite's one writer runs
    /// writes in turn anyway), so it sees the first and is refused. Without that, each would see
    /// the other still an admin, and the course would be left with none.
    @Test func twoAdminsDemotingEachOtherAtOnceLeaveOne() async throws {
        try await TestDatabase.withFresh { temporary in
            let instances = [try await temporary.open(), try await temporary.open()]
            var admins: [Account] = []
            for name in ["first", "second"] {
                admins.append(try await instances[0].store.createAccount(
                    email: "\(name)@example.com", firstName: name, lastName: "Admin", passwordHash: "h", isAdmin: true))
            }
            for round in 0..<12 {
                let changes = try await withThrowingTaskGroup(of: AccountChange.self) { group in
                    for (actor, target) in [(0, 1), (1, 0)] {
                        let store = instances[actor].store
                        let audit = AuditEntry(at: Int64(round), actorKey: admins[actor].key, actorEmail: admins[actor].email,
                                               action: .revokeAdmin, target: admins[target].key, detail: "")
                        let key = admins[target].key
                        group.addTask { try await store.setAdmin(key: key, isAdmin: false, audit: audit) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(changes.filter { $0 == .lastAdmin }.count == 1, "round \(round): \(changes)")
                let remaining = try await instances[0].store.allAccounts().filter(\.isAdmin)
                try #require(remaining.count == 1, "round \(round)")
                // The one left makes the other an admin again for the next round.
                let demoted = try #require(admins.first { $0.key != remaining[0].key })
                _ = try await instances[0].store.setAdmin(key: demoted.key, isAdmin: true, audit: AuditEntry(
                    at: Int64(round), actorKey: remaining[0].key, actorEmail: remaining[0].email, action: .grantAdmin, target: demoted.key, detail: ""))
            }
            for instance in instances { try await instance.close() }
        }
    }

    /// A page of reported pins is a page of pins, however many reports one pin drew.
    @Test func reportedPinsArePagedByPinNewestFirst() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let owners = [try await store.newAccount("A"), try await store.newAccount("B"), try await store.newAccount("C")]
            var pins: [StudentLocation] = []
            for owner in owners { pins.append(try await store.pin(owner, at: "Somewhere")) }
            var now: Int64 = 1_000
            // Twelve students report pin 0, then one reports pin 1, then one pin 2.
            for _ in 0..<12 {
                now += 1
                _ = try await store.insertReport(objectId: pins[0].objectId, in: .default, reporterKey: try await store.newAccount("R").key, reason: .spam, now: now)
            }
            let last = try await store.newAccount("Last")
            _ = try await store.insertReport(objectId: pins[1].objectId, in: .default, reporterKey: last.key, reason: .offensive, now: now + 1)
            _ = try await store.insertReport(objectId: pins[2].objectId, in: .default, reporterKey: last.key, reason: .other, now: now + 2)

            let first = try await store.reportedPins(openOnly: true, limit: 2, skip: 0, in: nil)
            #expect(first.map(\.objectId) == [pins[2].objectId, pins[1].objectId])
            let second = try await store.reportedPins(openOnly: true, limit: 2, skip: 2, in: nil)
            #expect(second.map(\.objectId) == [pins[0].objectId])
            #expect(second.first?.reports.count == 12)
            #expect(second.first?.reports.map(\.createdAt) == (1_001...1_012).reversed().map { Int64($0) }, "newest first")

            // Dismissed reports leave the open list, and stay in the whole one.
            let audit = AuditEntry(at: now + 3, actorKey: nil, actorEmail: "admin@example.com", action: .dismissReports, target: pins[2].objectId, detail: "")
            #expect(try await store.dismissReports(objectId: pins[2].objectId, by: last.key, now: now + 3, audit: audit) == 1)
            #expect(try await store.reportedPins(openOnly: true, limit: 10, skip: 0, in: nil).map(\.objectId) == [pins[1].objectId, pins[0].objectId])
            #expect(try await store.reportedPins(openOnly: false, limit: 10, skip: 0, in: nil).count == 3)
            try await database.close()
        }
    }
}
