import Foundation
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// Issue 13, the admin area's reports, on both engines.
@Suite struct ModerationStoreTests {
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
                _ = try await store.insertReport(objectId: pins[0].objectId, reporterKey: try await store.newAccount("R").key, reason: .spam, now: now)
            }
            let last = try await store.newAccount("Last")
            _ = try await store.insertReport(objectId: pins[1].objectId, reporterKey: last.key, reason: .offensive, now: now + 1)
            _ = try await store.insertReport(objectId: pins[2].objectId, reporterKey: last.key, reason: .other, now: now + 2)

            let first = try await store.reportedPins(openOnly: true, limit: 2, skip: 0)
            #expect(first.map(\.objectId) == [pins[2].objectId, pins[1].objectId])
            let second = try await store.reportedPins(openOnly: true, limit: 2, skip: 2)
            #expect(second.map(\.objectId) == [pins[0].objectId])
            #expect(second.first?.reports.count == 12)
            #expect(second.first?.reports.map(\.createdAt) == (1_001...1_012).reversed().map { Int64($0) }, "newest first")

            // Dismissed reports leave the open list, and stay in the whole one.
            let audit = AuditEntry(at: now + 3, actorKey: nil, actorEmail: "admin@example.com", action: .dismissReports, target: pins[2].objectId, detail: "")
            #expect(try await store.dismissReports(objectId: pins[2].objectId, by: last.key, now: now + 3, audit: audit) == 1)
            #expect(try await store.reportedPins(openOnly: true, limit: 10, skip: 0).map(\.objectId) == [pins[1].objectId, pins[0].objectId])
            #expect(try await store.reportedPins(openOnly: false, limit: 10, skip: 0).count == 3)
            try await database.close()
        }
    }
}
