import Crypto
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel

/// Each course's default list (latest 100) as encoded bytes with their ETag and their gzip form,
/// rebuilt only after a change to that course's pins is announced. The list is read far more often
/// than anything is written: this turns most reads into a memory copy. Requests that miss together
/// share one rebuild. The lists of the `capacity` courses read most recently are kept; another
/// course's is read on demand and takes the place of the one read longest ago, so the memory held
/// is bounded whatever the number of courses (`onthemap_list_cache_lists` and `_bytes` say how much).
final class LatestListCache: Sendable {
    /// A course's list as one audience reads it: with full names, or with initials only (readers who
    /// are not members of a course that shows them initials, `NamesForReader`).
    struct Key: Hashable, Sendable {
        let course: CourseID
        let names: Course.NamesShown

        init(_ course: CourseID, names: Course.NamesShown = .full) {
            self.course = course
            self.names = names
        }
    }

    struct Entry: Sendable {
        let body: ByteBuffer
        let etag: String
        /// Level 9, made once per change: most phones ask for gzip.
        let gzipped: ByteBuffer?

        var bytes: Int { body.readableBytes + (gzipped?.readableBytes ?? 0) }
    }

    /// One course's place in the cache.
    private struct Slot {
        /// When the slot was made: a rebuild keeps its entry only while its slot is this one (a
        /// change to the course removes the slot, and a later read makes a new one).
        let generation: UInt64
        var entry: Entry?
        var rebuild: Task<Entry, any Error>?
        var lastRead: UInt64
    }

    private struct State {
        /// Counts reads and changes: the order of slots' making and reading.
        var tick: UInt64 = 0
        var slots: [Key: Slot] = [:]
    }

    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(capacity: Int) {
        precondition(capacity > 0, "the cache keeps at least one course's list")
        self.capacity = capacity
    }

    /// Drops `course`'s cached bytes, or every course's for nil (a change whose course is not
    /// known, such as another process's write); called for every announced change.
    func invalidate(_ course: CourseID?) {
        let size = state.withLockedValue { state in
            state.tick += 1
            if let course {
                for names in Course.NamesShown.allCases { state.slots[Key(course, names: names)] = nil }
            } else {
                state.slots.removeAll()
            }
            return Self.size(of: state)
        }
        ServiceMetrics.listCacheSize(lists: size.lists, bytes: size.bytes)
    }

    /// The list's cached entry if there is one, without waiting: the edge answers from it on the
    /// event loop. Counted as a hit when there is one; when not, the router's `get` counts the request.
    func current(_ course: Key) -> Entry? {
        let entry = state.withLockedValue { state -> Entry? in
            guard let slot = state.slots.index(forKey: course), let entry = state.slots.values[slot].entry else { return nil }
            state.tick += 1
            state.slots.values[slot].lastRead = state.tick
            return entry
        }
        if entry != nil { ServiceMetrics.listCache(.hit) }
        return entry
    }

    /// The list's cached entry, or the one a rebuild started since its course's last change
    /// produces; starts that rebuild with `build` if none runs. A rebuild that raced with a change
    /// is served but not kept.
    func get(_ course: Key, build: @escaping @Sendable () async throws -> ByteBuffer) async throws -> Entry {
        let (cached, rebuild, generation) = state.withLockedValue { state -> (Entry?, Task<Entry, any Error>?, UInt64) in
            state.tick += 1
            let now = state.tick
            // One lookup: a hit is the hot path.
            if let index = state.slots.index(forKey: course) {
                state.slots.values[index].lastRead = now
                let slot = state.slots.values[index]
                if let entry = slot.entry { return (entry, nil, slot.generation) }
                if let rebuild = slot.rebuild { return (nil, rebuild, slot.generation) }
            }
            let task = Task {
                let body = try await build()
                return Entry(body: body, etag: Self.etag(of: body), gzipped: try? ResponseCompression.gzip(body, level: 9))
            }
            let generation = state.slots[course]?.generation ?? now
            state.slots[course] = Slot(generation: generation, entry: nil, rebuild: task, lastRead: now)
            Self.evictBeyond(capacity, from: &state)
            return (nil, task, generation)
        }
        ServiceMetrics.listCache(cached == nil ? .miss : .hit)
        guard let rebuild else { return cached! }
        let result = await rebuild.result
        let size = state.withLockedValue { state in
            if var slot = state.slots[course], slot.generation == generation, slot.rebuild == rebuild {
                slot.rebuild = nil
                if case .success(let entry) = result { slot.entry = entry }
                state.slots[course] = slot
            }
            return Self.size(of: state)
        }
        ServiceMetrics.listCacheSize(lists: size.lists, bytes: size.bytes)
        return try result.get()
    }

    /// Removes the slots read longest ago until `capacity` are left.
    private static func evictBeyond(_ capacity: Int, from state: inout State) {
        while state.slots.count > capacity, let oldest = state.slots.min(by: { $0.value.lastRead < $1.value.lastRead })?.key {
            state.slots[oldest] = nil
        }
    }

    private static func size(of state: State) -> (lists: Int, bytes: Int) {
        state.slots.values.reduce(into: (0, 0)) { size, slot in
            if let entry = slot.entry { size = (size.0 + 1, size.1 + entry.bytes) }
        }
    }

    private static func etag(of body: ByteBuffer) -> String {
        let digest = SHA256.hash(data: body.readableBytesView)
        return "\"" + Identifiers.hex(digest.prefix(12)) + "\""
    }
}
