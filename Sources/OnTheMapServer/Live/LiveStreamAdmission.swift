import NIOConcurrencyHelpers
import OnTheMapModel

/// How live streams behave; the defaults suit a course on one instance.
public struct LiveStreamSettings: Sendable {
    /// Streams open at once on this instance, and from one client address (a class behind one NAT
    /// shares an address, each student with a tab or two).
    public var maxStreams = 10_000
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
final class LiveStreamAdmission: Sendable {
    private struct Counts {
        var total = 0
        var perAddress: [String: Int] = [:]
    }

    private let settings: LiveStreamSettings
    private let counts = NIOLockedValueBox(Counts())

    init(settings: LiveStreamSettings) {
        self.settings = settings
    }

    /// Throws what `open` would: 429 past the address's cap, 503 past the instance's.
    func check(_ address: String) throws {
        try counts.withLockedValue { try Self.check(address, in: $0, settings: settings) }
    }

    /// A place for one stream from `address`, to be closed when the stream ends.
    func open(for address: String) throws -> Slot {
        try counts.withLockedValue { counts in
            try Self.check(address, in: counts, settings: settings)
            counts.total += 1
            counts.perAddress[address, default: 0] += 1
            ServiceMetrics.liveStreams(+1)
        }
        return Slot(admission: self, address: address)
    }

    private static func check(_ address: String, in counts: Counts, settings: LiveStreamSettings) throws {
        guard counts.total < settings.maxStreams else {
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
