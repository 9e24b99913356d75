import NIOConcurrencyHelpers
import OnTheMapModel

/// How live streams behave; the defaults suit a course on one instance.
public struct LiveStreamSettings: Sendable {
    /// Streams open at once on this instance, and from one client address (a class behind one NAT
    /// shares an address, each student with a tab or two). 20,000, from `make bench`
    /// (scripts/bench/bench-streams.sh, BENCHMARKS.md): on two cores an instance held 17,885 streams
    /// (as many as a descriptor limit of 20,000 leaves room for) at about 26 KB each, and a write
    /// made meanwhile was answered as usual and reached every one of them well within a second.
    /// Past the cap, streams are refused with 503 and `Retry-After` before writes slow down; the
    /// cap is lowered further where the descriptor limit leaves fewer connections (`LiveStreamAdmission`).
    public var maxStreams = 20_000
    public var maxStreamsPerAddress = 100
    /// How often an idle stream carries a comment, so that proxies keep it and clients see it alive.
    public var heartbeat: Duration = .seconds(20)
    /// The reconnection delay the stream asks clients to use.
    public var retryMilliseconds = 2000
    /// Missed events replayed to a reconnecting client; more, and it is told to reload.
    public var catchUpLimit = 1000

    public init() {}
}

/// Counts open streams, in all and per client address, and refuses past the caps.
///
/// Every stream holds a connection for as long as it is open, so the instance's cap is also kept
/// below what the HTTP edge may hold (`EdgeLimits.maxConnections`, from the descriptor limit): a
/// tenth of the connections stays for everything else. Past the cap a new stream is refused with
/// 503 and `Retry-After` (its client waits, or the proxy tries another instance), while a write or
/// a list still finds a connection; with streams free to take every connection, the edge would
/// refuse those instead, and a write made while 20,000 streams were open was answered 503.
final class LiveStreamAdmission: Sendable {
    private struct Counts {
        var total = 0
        var perAddress: [String: Int] = [:]
    }

    private let settings: LiveStreamSettings
    /// Streams open at once on this instance: `settings.maxStreams`, or less where the connections
    /// the edge may hold leave less room.
    let maxStreams: Int
    private let counts = NIOLockedValueBox(Counts())

    init(settings: LiveStreamSettings, connections: Int = .max) {
        self.settings = settings
        maxStreams = min(settings.maxStreams, Self.streams(leavingRoomIn: connections))
    }

    /// The streams `connections` can hold with a tenth of them left for other requests.
    static func streams(leavingRoomIn connections: Int) -> Int {
        connections == .max ? .max : connections - max(1, connections / 10)
    }

    /// Throws what `open` would: 429 past the address's cap, 503 past the instance's.
    func check(_ address: String) throws {
        try counts.withLockedValue { try check(address, in: $0) }
    }

    /// A place for one stream from `address`, to be closed when the stream ends.
    func open(for address: String) throws -> Slot {
        try counts.withLockedValue { counts in
            try check(address, in: counts)
            counts.total += 1
            counts.perAddress[address, default: 0] += 1
            ServiceMetrics.liveStreams(+1)
        }
        return Slot(admission: self, address: address)
    }

    private func check(_ address: String, in counts: Counts) throws {
        guard counts.total < maxStreams else {
            throw APIError.overloaded(retryAfter: 5, message: "Too many live streams on this server; try again shortly.")
        }
        guard counts.perAddress[address, default: 0] < settings.maxStreamsPerAddress else {
            throw APIError.tooManyRequests(retryAfter: 5, message: "Too many live streams from your network; close some tabs.")
        }
    }

    fileprivate func close(_ address: String) {
        counts.withLockedValue { counts in
            counts.total -= 1
            ServiceMetrics.liveStreams(-1)
            let remaining = counts.perAddress[address, default: 1] - 1
            counts.perAddress[address] = remaining > 0 ? remaining : nil
        }
    }

    /// One stream's place; closing it twice is harmless.
    final class Slot: Sendable {
        private let admission: LiveStreamAdmission
        private let address: String
        private let closed = NIOLockedValueBox(false)

        fileprivate init(admission: LiveStreamAdmission, address: String) {
            self.admission = admission
            self.address = address
        }

        func close() {
            guard !closed.withLockedValue({ was in defer { was = true }; return was }) else { return }
            admission.close(address)
        }
    }
}
