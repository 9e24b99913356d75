import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// Pins that wait for an instructor's approval (migration 17), on both engines: a held write
/// hides the pin from every public read and count, a pin that showed is announced gone and one
/// that never showed is announced to no one; approving shows it (announced as new), declining
/// keeps it hidden for good, and a moderator's hiding outlasts the student's next write.
@Suite struct CourseApprovalStoreTests {
    @Test func aHeldPinWaitsUnseenUntilApprovedAndALaterChangeWaitsAgain() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let course = try await store.newCourse("cs101")
            let grace = try await store.newAccount("Grace"), alan = try await store.newAccount("Alan")
            let shown = try await store.pin(grace, at: "Lima", in: course, now: 1_000)
            #expect(try await events(store, course) == [.init(.created, shown.objectId)])

            // Her change in a course that now asks for approval: gone from the map, announced gone.
            let changed = try await store.pin(grace, at: "Quito", in: course, now: 2_000, held: true)
            #expect(changed.objectId == shown.objectId && changed.mapString == "Quito")
            let waiting = try #require(try await store.location(ownerKey: grace.key, in: course))
            #expect(waiting.awaitingApproval && waiting.hiddenAt == 2_000)
            #expect(try await visible(store, course) == [])
            #expect(try await store.locations(LocationQuery(limit: 100, includeCount: true), in: course).count == 0)
            #expect(try await events(store, course) == [.init(.deleted, shown.objectId)])

            // Alan's first pin waits and is announced to no one; so is Grace's next change.
            let his = try await store.pin(alan, at: "Cusco", in: course, now: 3_000, held: true)
            _ = try await store.pin(grace, at: "Bogotá", in: course, now: 4_000, held: true)
            #expect(try await events(store, course) == [.init(.deleted, shown.objectId)])
            #expect(try await store.locationsAwaitingApproval(in: course, limit: 10, skip: 0).map(\.location.mapString) == ["Bogotá", "Cusco"])
            #expect(try await store.locationsAwaitingApproval(in: .default, limit: 10, skip: 0).isEmpty)

            // Approving shows hers, announced as new; declining keeps his hidden, no longer waiting.
            let approved = try #require(try await store.setHidden(objectId: shown.objectId, hiddenAt: nil, audit: audit(.approveLocation, course)))
            #expect(!approved.isHidden && !approved.awaitingApproval)
            let declined = try #require(try await store.setHidden(objectId: his.objectId, hiddenAt: 5_000, audit: audit(.declineLocation, course)))
            #expect(declined.isHidden && !declined.awaitingApproval)
            #expect(try await visible(store, course) == ["Bogotá"])
            #expect(try await store.locations(LocationQuery(limit: 100, includeCount: true), in: course).count == 1)
            #expect(try await events(store, course) == [.init(.created, shown.objectId)])
            #expect(try await store.locationsAwaitingApproval(in: nil, limit: 10, skip: 0).isEmpty)

            // An update by id waits again and is announced gone; a declined pin stays declined.
            let updated = try await store.updateLocation(
                objectId: shown.objectId, in: course, with: LocationFields(mapString: "Caracas"), now: 6_000, heldForApproval: true)
            #expect(updated?.mapString == "Caracas")
            #expect(try await store.location(ownerKey: grace.key, in: course)?.awaitingApproval == true)
            #expect(try await events(store, course) == [.init(.deleted, shown.objectId)])
            _ = try await store.pin(alan, at: "Santiago", in: course, now: 7_000, held: true)
            let stillDeclined = try #require(try await store.location(ownerKey: alan.key, in: course))
            #expect(stillDeclined.isHidden && !stillDeclined.awaitingApproval && stillDeclined.hiddenAt == 3_000)

            // A write that is not held leaves a waiting pin waiting (approval turned off meanwhile).
            _ = try await store.pin(grace, at: "Lima", in: course, now: 8_000)
            #expect(try await store.location(ownerKey: grace.key, in: course)?.awaitingApproval == true)
            #expect(try await visible(store, course) == [])
            #expect(try await store.locations(LocationQuery(limit: 100, includeCount: true), in: course).count == 0)
            try await database.close()
        }
    }

    private struct Announced: Equatable, CustomStringConvertible {
        let kind: LocationEvent.Kind
        let objectId: String?
        init(_ kind: LocationEvent.Kind, _ objectId: String?) { (self.kind, self.objectId) = (kind, objectId) }
        var description: String { "\(kind) \(objectId ?? "-")" }
    }

    private func events(_ store: SQLStore, _ course: CourseID) async throws -> [Announced] {
        try await store.waitUntilEventsAreFinal()
        return try await store.locationEvents(after: 0, limit: 100, in: course).map { Announced($0.kind, $0.objectId) }
    }

    private func visible(_ store: SQLStore, _ course: CourseID) async throws -> [String] {
        try await store.locations(LocationQuery(limit: 100), in: course).results.map(\.mapString)
    }

    private func audit(_ action: AuditEntry.Action, _ course: CourseID) -> AuditEntry {
        AuditEntry(at: 1, actorKey: nil, actorEmail: "teacher@example.com", action: action, target: "t", detail: "d", course: course)
    }
}
