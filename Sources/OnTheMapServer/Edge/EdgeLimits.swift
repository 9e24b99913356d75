import Foundation
import NIOCore

/// What one client may take of the server's connections and time (docs/API.md, "Connections").
public struct EdgeLimits: Sendable {
    /// From a request's first byte to the end of its head; past it, 408 and the connection closes.
    public var headerTimeout: Duration = .seconds(10)
    /// From the end of a request's head to the end of its body.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long a keep-alive connection may wait, idle, for its next request.
    public var idleTimeout: Duration = .seconds(60)
    /// Open connections in all; at the limit the longest-idle connection is closed to make room,
    /// and when none is idle the newcomer gets 503.
    public var maxConnections = EdgeLimits.connectionsTheProcessCanHold
    /// Open connections from one client address (the TCP peer: not applied with `--trust-proxy`,
    /// where every connection comes from the proxy).
    public var maxConnectionsPerAddress = 256

    public init() {}

    /// What the file descriptor limit leaves after the database files, the gazetteer and logs.
    public static var connectionsTheProcessCanHold: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 - 128 }
        let soft = Int(min(limit.rlim_cur, 65536))
        return max(16, soft - 128)
    }
}
