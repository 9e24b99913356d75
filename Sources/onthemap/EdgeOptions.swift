import ArgumentParser
import OnTheMapServer

/// `serve`'s flags for timeouts and connection limits at the HTTP edge (docs/API.md, "Connections").
struct EdgeOptions: ParsableArguments {
    @Option(name: .customLong(ServerSetting.headerTimeout.name), help: ServerSetting.headerTimeout.help)
    var headerTimeout: String?

    @Option(name: .customLong(ServerSetting.bodyTimeout.name), help: ServerSetting.bodyTimeout.help)
    var bodyTimeout: String?

    @Option(name: .customLong(ServerSetting.idleTimeout.name), help: ServerSetting.idleTimeout.help)
    var idleTimeout: String?

    @Option(name: .customLong(ServerSetting.maxConnections.name), help: ServerSetting.maxConnections.help)
    var maxConnections: String?

    @Option(name: .customLong(ServerSetting.maxConnectionsPerAddress.name), help: ServerSetting.maxConnectionsPerAddress.help)
    var maxConnectionsPerAddress: String?

    func limits() throws -> EdgeLimits {
        var limits = EdgeLimits()
        limits.headerTimeout = try seconds(headerTimeout, .headerTimeout, default: limits.headerTimeout)
        limits.bodyTimeout = try seconds(bodyTimeout, .bodyTimeout, default: limits.bodyTimeout)
        limits.idleTimeout = try seconds(idleTimeout, .idleTimeout, default: limits.idleTimeout)
        limits.maxConnections = try count(maxConnections, .maxConnections, default: limits.maxConnections)
        limits.maxConnectionsPerAddress = try count(maxConnectionsPerAddress, .maxConnectionsPerAddress, default: limits.maxConnectionsPerAddress)
        return limits
    }

    private func seconds(_ text: String?, _ setting: ServerSetting, default value: Duration) throws -> Duration {
        try setting.value(text, default: value, expected: "a whole number of seconds from 1 to 3600") {
            Int64($0).flatMap { (1...3600).contains($0) ? .seconds($0) : nil }
        }
    }

    private func count(_ text: String?, _ setting: ServerSetting, default value: Int) throws -> Int {
        try setting.value(text, default: value, expected: "a whole number from 1 to 1000000") {
            Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
        }
    }
}
