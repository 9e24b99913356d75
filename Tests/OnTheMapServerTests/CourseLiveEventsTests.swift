import Logging
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import OnTheMapTestSupport
import SQLKit
import Testing

/// Live events belong to a course: a stream of one course is handed its events only, a resuming
/// stream catches up on its course's only, and a `reload` (the data rewritten) reaches every
/// course's streams.
@Suite struct CourseLiveEventsTests {
    @Test func aCoursesStreamAndCatchUpCarryOnlyItsEvents() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let cs101 = try await Self.secondCourse(in: store)
            let hub = LocationEventHub(store: store, logger: .quiet)
            let here = try await hub.subscribe(to: .default), there = try await hub.subscribe(to: cs101)
            // Ends both streams should an item never come: the test then fails instead of waiting.
            let watchdog = Task { try await Task.sleep(for: .seconds(20)); here.cancel(); there.cancel() }
            defer { watchdog.cancel(); here.cancel(); there.cancel() }
            var hereItems = here.items.makeAsyncIterator(), thereItems = there.items.makeAsyncIterator()

            let mine = try await store.saveLocation(Self.fields, ownerKey: nil, in: .default, now: 1_000)
            let theirs = try await store.saveLocation(Self.fields, ownerKey: nil, in: cs101, now: 1_001)
            try await store.waitUntilEventsAreFinal()
            hub.poke()
            #expect(await Self.nextEvent(&hereItems).map { [$0.objectId, "\($0.course)"] } == [mine.objectId, "\(CourseID.default)"])
            #expect(await Self.nextEvent(&thereItems).map { [$0.objectId, "\($0.course)"] } == [theirs.objectId, "\(cs101)"])

            // The next each gets is the reload, not the other course's pin.
            try await store.startLocationEventEpoch()
            try await store.waitUntilEventsAreFinal()
            hub.poke()
            #expect(await Self.nextEvent(&hereItems)?.kind == .reload)
            #expect(await Self.nextEvent(&thereItems)?.kind == .reload)

            // Catching up reads the log of the course asked for (and every course's reload).
            let caughtUp = try await store.locationEvents(after: 0, limit: 10, in: cs101)
            #expect(caughtUp.map(\.kind) == [.reload], "the epoch replaced the events before it")
            try await database.close()
        }
    }

    @Test func theLogsEventsSayTheirCourseAndAreReadPerCourse() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let cs101 = try await Self.secondCourse(in: store)
            let mine = try await store.saveLocation(Self.fields, ownerKey: nil, in: .default, now: 1_000)
            let theirs = try await store.saveLocation(Self.fields, ownerKey: nil, in: cs101, now: 1_001)
            _ = try await store.updateLocation(objectId: theirs.objectId, in: cs101, with: LocationFields(mapString: "Moved"), now: 1_002)
            let gone = try await store.saveLocation(Self.fields, ownerKey: nil, in: cs101, now: 1_003)
            #expect(try await store.deleteLocation(objectId: gone.objectId, in: cs101))
            try await store.waitUntilEventsAreFinal()

            let all = try await store.locationEvents(after: 0, limit: 10)
            #expect(all.map(\.course) == [.default, cs101, cs101])
            #expect(try await store.locationEvents(after: 0, limit: 10, in: .default).map(\.objectId) == [mine.objectId])
            #expect(try await store.locationEvents(after: 0, limit: 10, in: cs101).map(\.kind) == [.updated, .deleted])
            try await database.close()
        }
    }

    static let fields = CompleteLocationFields(
        uniqueKey: "k", firstName: "F", lastName: "L", mapString: "Somewhere", mediaURL: "https://example.com", latitude: 1, longitude: 2)

    private static func secondCourse(in store: SQLStore) async throws -> CourseID {
        let rows = try await store.writer.run(SQLQueryString(
            "INSERT INTO courses (slug, title, created_at) VALUES ('cs101', 'CS101', 0) RETURNING id"))
        return CourseID(rawValue: try rows[0].decode(column: "id", as: Int64.self))
    }

    /// The next event a stream is handed (heartbeats skipped), or nil once the stream has ended.
    private static func nextEvent(_ items: inout AsyncStream<LocationEventHub.Item>.Iterator) async -> LocationEvent? {
        while let item = await items.next() {
            switch item {
            case .event(let published): return published.event
            case .heartbeat: continue
            case .end: return nil
            }
        }
        return nil
    }
}
