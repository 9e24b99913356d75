import NIOConcurrencyHelpers
import OnTheMapModel
import OnTheMapStore

/// Finds the course a `/c/{slug}/` path names, remembering what it read for `freshSeconds` so that
/// a course's requests cost no lookup of their own, and answering without waiting from what it
/// remembers (the HTTP edge asks on the event loop). A change made here is seen here at once
/// (`forget`); one made by another instance is seen within `freshSeconds` (README.md, "Courses").
/// Slugs that name no course are remembered too, so that guessing costs no query each; at most
/// `capacity` slugs are kept: when full, the stale ones are dropped, or, when all are fresh (more
/// than `capacity` slugs asked for within `freshSeconds`), all of them.
final class CourseDirectory: Sendable {
    private struct Found {
        let course: Course?
        let readAt: ContinuousClock.Instant
    }

    private let store: any CourseStore
    private let freshness: Duration
    private let capacity: Int
    private let found = NIOLockedValueBox<[CourseSlug: Found]>([:])

    init(store: any CourseStore, freshSeconds: Int = 5, capacity: Int = 10_000) {
        self.store = store
        self.freshness = .seconds(freshSeconds)
        self.capacity = capacity
    }

    /// What is known of `slug` and still fresh: `.some(nil)` for a slug known to name no course,
    /// nil when it must be read (`course(_:)`).
    func remembered(_ slug: CourseSlug) -> Course?? {
        let now = ContinuousClock.now
        return found.withLockedValue { found in
            guard let known = found[slug], now - known.readAt < freshness else { return nil }
            return .some(known.course)
        }
    }

    /// The course `slug` names, or nil for none.
    func course(_ slug: CourseSlug) async throws -> Course? {
        if let known = remembered(slug) { return known }
        let course = try await store.course(slug: slug)
        let now = ContinuousClock.now
        found.withLockedValue { found in
            if found.count >= capacity, found[slug] == nil {
                found = found.filter { now - $0.value.readAt < freshness }
                if found.count >= capacity { found.removeAll(keepingCapacity: true) }
            }
            found[slug] = Found(course: course, readAt: now)
        }
        return course
    }

    /// Forgets what was read of `slug` (its course was changed or deleted here).
    func forget(_ slug: CourseSlug) {
        _ = found.withLockedValue { $0.removeValue(forKey: slug) }
    }
}
