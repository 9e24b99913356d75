import Foundation

/// Wall-clock time in the units the store keeps. The server's services are handed one
/// (`AppServices.Overrides.clock`, the machine's own unless a test sets another) rather than each reading the
/// time itself; the engines stamp their commits with `system`.
public struct WallClock: Sendable {
    private let microsSinceEpoch: @Sendable () -> Int64

    public init(microsSinceEpoch: @escaping @Sendable () -> Int64) {
        self.microsSinceEpoch = microsSinceEpoch
    }

    /// The machine's clock.
    public static let system = WallClock { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down)) }

    /// Microseconds since the epoch.
    public func nowMicros() -> Int64 { microsSinceEpoch() }
    /// Milliseconds since the epoch.
    public func nowMillis() -> Int64 { microsSinceEpoch() / 1000 }
    /// Now, as a `Date`.
    public var now: Date { Date(timeIntervalSince1970: Double(microsSinceEpoch()) / 1_000_000) }
}

extension Duration {
    /// The duration in milliseconds, with fractions: for logs and messages.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
