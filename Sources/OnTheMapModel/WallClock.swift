import Foundation

/// Wall-clock time in the units the store keeps.
public enum WallClock {
    /// Milliseconds since the epoch.
    public static func nowMillis() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    /// Microseconds since the epoch.
    public static func nowMicros() -> Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down)) }
}

extension Duration {
    /// The duration in milliseconds, with fractions: for logs and messages.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
