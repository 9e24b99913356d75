import ArgumentParser

/// `serve --metrics-address`: where `/metrics` listens, if anywhere (README, "Metrics").
struct MetricsOptions: ParsableArguments {
    @Option(name: .customLong(ServerSetting.metricsAddress.name), help: ServerSetting.metricsAddress.help)
    var metricsAddress: String?

    func validate() throws {
        _ = try listenAddress()
    }

    /// The host and port to serve metrics on; nil when metrics are off.
    func listenAddress() throws -> (host: String, port: Int)? {
        try ServerSetting.metricsAddress
            .value(metricsAddress, default: nil, expected: "host:port such as 127.0.0.1:9464 (or [::1]:9464)") { text in
                Self.parse(text).map { .some($0) }
            }
    }

    /// Refuses a metrics address the server itself listens on: both listeners would want it.
    func checkApart(fromServerAt host: String, port: Int) throws {
        guard let metrics = try listenAddress(), metrics.port == port, port != 0 else { return }
        let wildcards: Set<String> = ["0.0.0.0", "::", ""]
        guard metrics.host == host || wildcards.contains(metrics.host) || wildcards.contains(host) else { return }
        throw ValidationError(
            "--metrics-address \(metrics.host):\(metrics.port) is the server's own address (--host \(host) --port \(port)): give metrics a port of their own, e.g. \(metrics.host):9464.")
    }

    /// `host:port`, `[v6 address]:port` or `:port` (this machine only).
    static func parse(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "127.0.0.1" }
        guard !host.contains(" "), !host.contains("/") else { return nil }
        return (host, port)
    }
}
