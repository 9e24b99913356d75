import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// The list cache keeps each course's list apart, forgets only the course a change names, and
/// holds at most `capacity` courses' lists, those read most recently.
@Suite struct LatestListCacheTests {
    /// Counts the rebuilds of each course's list.
    final class Builds: Sendable {
        private let counts = NIOLockedValueBox<[LatestListCache.Key: Int]>([:])
        func build(_ course: LatestListCache.Key) -> @Sendable () async throws -> ByteBuffer {
            { [counts] in
                let count = counts.withLockedValue { counts in
                    counts[course, default: 0] += 1
                    return counts[course]!
                }
                return ByteBuffer(string: "{\"course\":\(course.course.rawValue),\"names\":\"\(course.names)\",\"build\":\(count)}")
            }
        }
        func count(_ course: LatestListCache.Key) -> Int { counts.withLockedValue { $0[course] ?? 0 } }
    }

    let a = LatestListCache.Key(CourseID(rawValue: 1)), b = LatestListCache.Key(CourseID(rawValue: 2)), c = LatestListCache.Key(CourseID(rawValue: 3))

    @Test func aChangeEmptiesOnlyItsCoursesList() async throws {
        let cache = LatestListCache(capacity: 10), builds = Builds()
        let first = try await cache.get(a, build: builds.build(a))
        _ = try await cache.get(b, build: builds.build(b))
        #expect(String(buffer: first.body) == "{\"course\":1,\"names\":\"full\",\"build\":1}")
        #expect(cache.current(b) != nil && cache.current(c) == nil)

        cache.invalidate(a.course)
        #expect(cache.current(a) == nil && cache.current(b) != nil, "a change in one course keeps the other's list")
        _ = try await cache.get(a, build: builds.build(a))
        _ = try await cache.get(b, build: builds.build(b))
        #expect(builds.count(a) == 2 && builds.count(b) == 1)

        cache.invalidate(nil)
        #expect(cache.current(a) == nil && cache.current(b) == nil, "a change of unknown course empties every list")
    }

    @Test func theListsReadLongestAgoMakeRoom() async throws {
        let cache = LatestListCache(capacity: 2), builds = Builds()
        _ = try await cache.get(a, build: builds.build(a))
        _ = try await cache.get(b, build: builds.build(b))
        #expect(cache.current(a) != nil, "read again: now b is the one read longest ago")
        _ = try await cache.get(c, build: builds.build(c))
        #expect(cache.current(b) == nil)
        #expect(cache.current(a) != nil && cache.current(c) != nil)
        _ = try await cache.get(b, build: builds.build(b))
        #expect(builds.count(b) == 2, "an evicted course's list is read again on demand")
    }

    @Test func aRebuildThatRacedWithAChangeIsServedButNotKept() async throws {
        let cache = LatestListCache(capacity: 10)
        let entry = try await cache.get(a) {
            cache.invalidate(a.course)
            return ByteBuffer(string: "{\"stale\":true}")
        }
        #expect(String(buffer: entry.body) == "{\"stale\":true}")
        #expect(cache.current(a) == nil)
    }

    @Test func eachAudiencesListIsKeptApartAndAChangeEmptiesBoth() async throws {
        let cache = LatestListCache(capacity: 10), builds = Builds()
        let initials = LatestListCache.Key(a.course, names: .initials)
        let full = try await cache.get(a, build: builds.build(a))
        let short = try await cache.get(initials, build: builds.build(initials))
        #expect(full.etag != short.etag)
        #expect(cache.current(a)?.etag == full.etag && cache.current(initials)?.etag == short.etag)
        cache.invalidate(a.course)
        #expect(cache.current(a) == nil && cache.current(initials) == nil)
    }
}
