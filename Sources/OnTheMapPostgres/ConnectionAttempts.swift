import Logging
import NIOConcurrencyHelpers

/// Why the pools last failed to connect, for the reason a request or `/readyz` gives when no
/// connection came in time: "connection refused", "the database system is starting up", a bad
/// password. PostgresClient says so only to its background logger ("Connection creation failed",
/// at info), so the pools get a logger that notes it on its way to the service's own.
final class ConnectionAttempts: Sendable {
    private let lastFailure = NIOLockedValueBox<(reason: String, at: ContinuousClock.Instant)?>(nil)

    /// `logger` for the pools: the same output, with connection failures noted here.
    func poolLogger(_ logger: Logger) -> Logger {
        var pool = Logger(label: logger.label) { _ in Handler(forwarding: logger, attempts: self) }
        pool.logLevel = min(logger.logLevel, .info)
        return pool
    }

    /// ", last connection attempt: REASON (N s ago)", or "" when none failed in the last minute.
    var lastFailureDescription: String {
        guard let (reason, at) = lastFailure.withLockedValue({ $0 }) else { return "" }
        let ago = ContinuousClock.now - at
        guard ago < .seconds(60) else { return "" }
        return "; last connection attempt: \(reason) (\(ago.components.seconds) s ago)"
    }

    func failed(_ error: String) {
        lastFailure.withLockedValue { $0 = (Self.reason(of: error), .now) }
    }

    /// A connection was had: a failure before it no longer explains a wait (a pool that is only
    /// busy must not be blamed on a refusal from the outage before).
    func connected() {
        lastFailure.withLockedValue { if $0 != nil { $0 = nil } }
    }

    /// The part of PostgresNIO's error description an operator needs.
    static func reason(of error: String) -> String {
        if let message = error.firstRange(of: "message: ") {
            let rest = error[message.upperBound...]
            return String(rest.prefix { $0 != "," && $0 != "]" })
        }
        if error.localizedCaseInsensitiveContains("refused") { return "connection refused" }
        if error.localizedCaseInsensitiveContains("timed out") || error.localizedCaseInsensitiveContains("timeout") { return "connecting timed out" }
        if error.localizedCaseInsensitiveContains("No such file") { return "no server socket at that path" }
        return String(error.prefix(160))
    }

    private struct Handler: LogHandler {
        let forwarding: Logger
        let attempts: ConnectionAttempts
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        init(forwarding: Logger, attempts: ConnectionAttempts) {
            self.forwarding = forwarding
            self.attempts = attempts
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            if event.message.description == "Connection creation failed", let error = event.metadata?["psql_error"] ?? event.metadata?["error"] {
                attempts.failed("\(error)")
            }
            guard event.level >= forwarding.logLevel else { return }
            forwarding.log(level: event.level, event.message, metadata: metadata.merging(event.metadata ?? [:]) { $1 },
                           source: event.source, file: event.file, function: event.function, line: event.line)
        }
    }
}
