import Crypto
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel

/// The encoded bytes of the default list (latest 100) with their ETag and their gzip form, rebuilt
/// only after a change to a location is announced. The list is read far more often than anything is
/// written: this turns most reads into a memory copy. Requests that miss together share one rebuild.
final class LatestListCache: Sendable {
    struct Entry: Sendable {
        let body: ByteBuffer
        let etag: String
        /// Level 9, made once per change: most phones ask for gzip.
        let gzipped: ByteBuffer?
    }

    private struct State {
        /// One more for every change announced; an entry or rebuild from an older one is stale.
        var generation = 0
        var entry: Entry?
        var rebuild: (generation: Int, task: Task<Entry, any Error>)?
    }

    private let state = NIOLockedValueBox(State())

    /// Drops the cached bytes; called for every announced change.
    func invalidate() {
        state.withLockedValue { state in
            state.generation += 1
            state.entry = nil
        }
    }

    /// The cached entry if there is one, without waiting: the edge answers from it on the event loop.
    /// Counted as a hit when there is one; when not, the router's `get` counts the request.
    var current: Entry? {
        let entry = state.withLockedValue { $0.entry }
        if entry != nil { ServiceMetrics.listCache(.hit) }
        return entry
    }

    /// The cached entry, or the one a rebuild started since the last change produces; starts that
    /// rebuild with `build` if none runs. A rebuild that raced with a change is served but not kept.
    func get(build: @escaping @Sendable () async throws -> ByteBuffer) async throws -> Entry {
        let (cached, rebuild, generation) = state.withLockedValue { state -> (Entry?, Task<Entry, any Error>?, Int) in
            if let entry = state.entry { return (entry, nil, state.generation) }
            if let rebuild = state.rebuild, rebuild.generation == state.generation { return (nil, rebuild.task, state.generation) }
            let task = Task {
                let body = try await build()
                return Entry(body: body, etag: Self.etag(of: body), gzipped: try? ResponseCompression.gzip(body, level: 9))
            }
            state.rebuild = (state.generation, task)
            return (nil, task, state.generation)
        }
        ServiceMetrics.listCache(cached == nil ? .miss : .hit)
        if let cached { return cached }
        let result = await rebuild!.result
        state.withLockedValue { state in
            if state.rebuild?.task == rebuild { state.rebuild = nil }
            if case .success(let entry) = result, state.generation == generation { state.entry = entry }
        }
        return try result.get()
    }

    private static func etag(of body: ByteBuffer) -> String {
        let digest = SHA256.hash(data: body.readableBytesView)
        return "\"" + Identifiers.hex(digest.prefix(12)) + "\""
    }
}
