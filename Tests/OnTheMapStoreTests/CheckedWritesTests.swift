import NIOConcurrencyHelpers
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// A pin's update and deletion check who may make them in the write itself (`LocationWriteRight`),
/// with no read of the pin before: the owner, an admin, anyone for a pin without an owner when the
/// right says so. A refusal is told from a pin not there, and changes and announces nothing.
@Suite struct CheckedWritesTests {
    static let body = LocationFields(
        uniqueKey: "body-key", firstName: "Body", lastName: "Names", mapString: "Moved", mediaURL: "https://example.com/moved", latitude: 3, longitude: 4)

    @Test func anUpdateReachesThePinsItsRightReaches() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let cs101 = try await store.newCourse("cs101")
            let owner = try await store.newAccount("Owner"), other = try await store.newAccount("Other")
            let pin = try await store.pin(owner, at: "Home")
            let anonymous = try await store.saveLocation(
                CompleteLocationFields(uniqueKey: "legacy", firstName: "Anon", lastName: "Ymous", mapString: "Somewhere",
                                       mediaURL: "https://example.com", latitude: 1, longitude: 2), ownerKey: nil, in: .default, now: 1)
            func update(_ objectId: String, in course: CourseID = .default, _ right: LocationWriteRight, fields: LocationFields = Self.body) async throws
                -> LocationWriteOutcome<StudentLocation> {
                try await store.updateLocation(objectId: objectId, in: course, with: fields, now: 5_000, heldForApproval: false, by: right)
            }
            let ownerRight = LocationWriteRight(accountKey: owner.key, isAdmin: false, ownerlessPins: false)
            let otherRight = LocationWriteRight(accountKey: other.key, isAdmin: false, ownerlessPins: false)
            let adminRight = LocationWriteRight(accountKey: other.key, isAdmin: true, ownerlessPins: false)
            let openRight = LocationWriteRight(accountKey: nil, isAdmin: false, ownerlessPins: true)

            guard case .refused = try await update(pin.objectId, otherRight) else { Issue.record("another student changed the pin"); return }
            guard case .refused = try await update(pin.objectId, openRight) else { Issue.record("an anonymous writer changed an owned pin"); return }
            guard case .refused = try await update(anonymous.objectId, ownerRight) else { Issue.record("a student changed an anonymous pin"); return }
            guard case .notFound = try await update("nonexistent", ownerRight) else { Issue.record("an unknown pin was found"); return }
            guard case .notFound = try await update(pin.objectId, in: cs101, ownerRight) else { Issue.record("another course's pin was found"); return }
            #expect(try await store.location(objectId: pin.objectId)?.location == pin, "refusals change nothing")

            // Partial bodies take the same road as whole ones.
            for fields in [Self.body, LocationFields(mapString: "Partly")] {
                guard case .written(let written, let ownerKey) = try await update(pin.objectId, ownerRight, fields: fields) else {
                    Issue.record("the owner was refused"); return
                }
                #expect(ownerKey == owner.key && written.mapString == fields.mapString && written.updatedAt == 5_000)
                #expect(written.uniqueKey == owner.key && written.firstName == owner.firstName && written.lastName == owner.lastName,
                        "an owned pin keeps its owner's names")
            }
            guard case .written(_, let ownerKey) = try await update(pin.objectId, adminRight) else { Issue.record("the admin was refused"); return }
            #expect(ownerKey == owner.key)
            guard case .written(let legacy, nil) = try await update(anonymous.objectId, openRight) else { Issue.record("open mode was refused"); return }
            #expect(legacy.uniqueKey == "body-key" && legacy.firstName == "Body", "a pin without an owner takes the body's names")
            try await database.close()
        }
    }

    @Test func aDeletionReachesThePinsItsRightReachesAndARefusalAnnouncesNothing() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let owner = try await store.newAccount("Owner"), other = try await store.newAccount("Other")
            let pin = try await store.pin(owner, at: "Home")
            let announced = NIOLockedValueBox<[LocationChange.Kind]>([])
            store.changes.subscribe { change in announced.withLockedValue { $0.append(change.kind) } }
            try await store.waitUntilEventsAreFinal()
            let mark = try #require(try await store.locationEventRange()).upperBound

            guard case .refused = try await store.deleteLocation(
                objectId: pin.objectId, in: .default, by: LocationWriteRight(accountKey: other.key, isAdmin: false, ownerlessPins: true)) else {
                Issue.record("another student deleted the pin"); return
            }
            _ = try await store.updateLocation(
                objectId: pin.objectId, in: .default, with: Self.body, now: 5_000, heldForApproval: false,
                by: LocationWriteRight(accountKey: other.key, isAdmin: false, ownerlessPins: false))
            try await store.waitUntilEventsAreFinal()
            #expect(try await store.locationEvents(after: mark, limit: 10).isEmpty, "no event for a refused write")
            #expect(announced.withLockedValue { $0 }.isEmpty, "no change announced for a refused write")
            #expect(try await store.location(objectId: pin.objectId) != nil)

            guard case .written(_, let ownerKey) = try await store.deleteLocation(
                objectId: pin.objectId, in: .default, by: LocationWriteRight(accountKey: owner.key, isAdmin: false, ownerlessPins: false)) else {
                Issue.record("the owner was refused"); return
            }
            #expect(ownerKey == owner.key)
            #expect(announced.withLockedValue { $0 } == [.deleted(objectId: pin.objectId, in: .default)])
            guard case .notFound = try await store.deleteLocation(objectId: pin.objectId, in: .default, by: .anyPin) else {
                Issue.record("a deleted pin was found"); return
            }
            try await database.close()
        }
    }
}

