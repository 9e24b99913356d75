import Crypto
import NIOCore
import OnTheMapModel

/// The encoded bytes of the default list (latest 100) with their ETag, rebuilt only after a write
/// lands, or after `maxAge` so that writes by another process (the CLI) show up too. The list is
/// read far more often than anything is written: this turns most reads into a memory copy.
actor LatestListCache {
    struct Entry: Sendable {
        let body: ByteBuffer
        let etag: String
    }

    private let maxAge: Duration
    private var generation = 0
    private var entry: (generation: Int, builtAt: ContinuousClock.Instant, value: Entry)?

    init(maxAgeSeconds: Double) {
        self.maxAge = .milliseconds(Int64(maxAgeSeconds * 1000))
    }

    /// Drops the cached bytes; called after every write.
    func invalidate() {
        generation += 1
        entry = nil
    }

    /// The cached entry, or a fresh one from `build`. A build that raced with a write is served
    /// but not kept.
    func get(build: @Sendable () async throws -> ByteBuffer) async throws -> Entry {
        let now = ContinuousClock.now
        if let entry, entry.generation == generation, now - entry.builtAt < maxAge { return entry.value }
        let startedGeneration = generation
        let body = try await build()
        let value = Entry(body: body, etag: Self.etag(of: body))
        if startedGeneration == generation { entry = (startedGeneration, now, value) }
        return value
    }

    private static func etag(of body: ByteBuffer) -> String {
        let digest = SHA256.hash(data: body.readableBytesView)
        return "\"" + Identifiers.hex(digest.prefix(12)) + "\""
    }
}
