import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// Two courses on one database: a student has one pin in each; each course's list, count, export,
/// owner lookup, update and delete see only its own pins.
@Suite struct CourseIsolationStoreTests {
    @Test func eachCourseSeesOnlyItsOwnPins() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let cs101 = try await store.newCourse("cs101")
            let grace = try await store.newAccount("Grace"), alan = try await store.newAccount("Alan")

            let graceHere = try await store.pin(grace, at: "Arlington")
            let graceThere = try await store.pin(grace, at: "Cambridge", in: cs101)
            let alanThere = try await store.pin(alan, at: "Manchester", in: cs101)
            #expect(graceHere.objectId != graceThere.objectId, "one pin per course, not one per account")
            // Posting again overwrites the pin of that course only.
            let graceMoved = try await store.pin(grace, at: "Boston", in: cs101)
            #expect(graceMoved.objectId == graceThere.objectId)

            let queries: [(LocationQuery, there: Set<String>)] = [
                (LocationQuery(limit: 100, includeCount: true), ["Boston", "Manchester"]),
                (LocationQuery(limit: 100, order: [SortKey(.lastName, descending: false)], includeCount: true), ["Boston", "Manchester"]),
                (LocationQuery(limit: 100, filter: .oneOf(.uniqueKey, [.text(grace.key), .text(alan.key)], negated: false), includeCount: true),
                 ["Boston", "Manchester"]),
                // Named by id from both courses: each answers its own.
                (LocationQuery(limit: 100, filter: .oneOf(.objectId, [.text(graceHere.objectId), .text(alanThere.objectId)], negated: false)),
                 ["Manchester"]),
            ]
            for (query, expected) in queries {
                let here = try await store.locations(query, in: .default)
                #expect(here.results.map(\.mapString) == ["Arlington"], "\(query)")
                let there = try await store.locations(query, in: cs101)
                #expect(Set(there.results.map(\.mapString)) == expected, "\(query)")
                if query.includeCount { #expect(here.count == 1 && there.count == 2, "\(query)") }
            }
            #expect(try await store.locations(in: .default, after: nil, limit: 10).map(\.mapString) == ["Arlington"])
            #expect(try await store.locations(in: cs101, after: nil, limit: 10).count == 2)
            #expect(try await store.location(ownerKey: grace.key, in: cs101)?.location.mapString == "Boston")
            #expect(try await store.location(ownerKey: alan.key, in: .default) == nil)
            #expect(try await store.location(objectId: alanThere.objectId)?.course == cs101)

            // Another course's pin cannot be changed or deleted through this one.
            #expect(try await store.updateLocation(objectId: alanThere.objectId, in: .default, with: LocationFields(mapString: "Moved"), now: 1) == nil)
            #expect(try await store.deleteLocation(objectId: alanThere.objectId, in: .default) == false)
            #expect(try await store.location(objectId: alanThere.objectId)?.location.mapString == "Manchester")
            #expect(try await store.deleteLocation(objectId: alanThere.objectId, in: cs101))
            #expect(try await store.locations(LocationQuery(limit: 0, includeCount: true), in: cs101).count == 1)
            #expect(try await store.locations(LocationQuery(limit: 0, includeCount: true), in: .default).count == 1)
            try await database.close()
        }
    }
}
