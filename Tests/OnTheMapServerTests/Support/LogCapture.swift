import Logging
import NIOConcurrencyHelpers

/// Keeps every log line a logger writes, with its metadata, for tests that read the log.
final class LogCapture: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])

    /// Everything logged so far, one entry per line.
    var text: String { lines.withLockedValue { $0.joined(separator: "\n") } }

    func logger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "onthemap-test") { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ line: String) { lines.withLockedValue { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(fields) [\(event.source)] \(event.file):\(event.line)")
        }
    }
}
