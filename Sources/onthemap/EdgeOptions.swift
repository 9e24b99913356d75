import ArgumentParser
import OnTheMapServer

/// `serve`'s flags for timeouts and connection limits at the HTTP edge (docs/API.md, "Connections").
struct EdgeOptions: ParsableArguments {
    @Option(name: .customLong("header-timeout"), help: ArgumentHelp(
        "Seconds from a request's first byte to the end of its headers; slower clients get 408 (env ONTHEMAP_HEADER_TIMEOUT; default 10).",
        valueName: "seconds"))
    var headerTimeout: String?

    @Option(name: .customLong("body-timeout"), help: ArgumentHelp(
        "Seconds to receive a request's body after its headers (env ONTHEMAP_BODY_TIMEOUT; default 30).", valueName: "seconds"))
    var bodyTimeout: String?

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Seconds a keep-alive connection may wait, idle, for its next request (env ONTHEMAP_IDLE_TIMEOUT; default 60).",
        valueName: "seconds"))
    var idleTimeout: String?

    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Open connections in all; when full, the longest-idle one is closed to make room (env ONTHEMAP_MAX_CONNECTIONS; default: the file descriptor limit less 128).",
        valueName: "count"))
    var maxConnections: String?

    @Option(name: .customLong("max-connections-per-address"), help: ArgumentHelp(
        "Open connections from one client address; not applied with --trust-proxy (env ONTHEMAP_MAX_CONNECTIONS_PER_ADDRESS; default 256).",
        valueName: "count"))
    var maxConnectionsPerAddress: String?

    func limits() throws -> EdgeLimits {
        var limits = EdgeLimits()
        limits.headerTimeout = try seconds(headerTimeout, "--header-timeout", "ONTHEMAP_HEADER_TIMEOUT", default: limits.headerTimeout)
        limits.bodyTimeout = try seconds(bodyTimeout, "--body-timeout", "ONTHEMAP_BODY_TIMEOUT", default: limits.bodyTimeout)
        limits.idleTimeout = try seconds(idleTimeout, "--idle-timeout", "ONTHEMAP_IDLE_TIMEOUT", default: limits.idleTimeout)
        limits.maxConnections = try count(maxConnections, "--max-connections", "ONTHEMAP_MAX_CONNECTIONS", default: limits.maxConnections)
        limits.maxConnectionsPerAddress = try count(
            maxConnectionsPerAddress, "--max-connections-per-address", "ONTHEMAP_MAX_CONNECTIONS_PER_ADDRESS", default: limits.maxConnectionsPerAddress)
        return limits
    }

    private func seconds(_ text: String?, _ flag: String, _ variable: String, default value: Duration) throws -> Duration {
        try Setting(flag: flag, variable: variable).value(text, default: value, expected: "a whole number of seconds from 1 to 3600") {
            Int64($0).flatMap { (1...3600).contains($0) ? .seconds($0) : nil }
        }
    }

    private func count(_ text: String?, _ flag: String, _ variable: String, default value: Int) throws -> Int {
        try Setting(flag: flag, variable: variable).value(text, default: value, expected: "a whole number from 1 to 1000000") {
            Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
        }
    }
}
