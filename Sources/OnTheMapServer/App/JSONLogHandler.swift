import Foundation
import Logging
import OnTheMapModel

/// `--log-format json`: one JSON object per line on standard error, for log collectors. Each has
/// `time` (UTC, milliseconds), `level`, `label`, `message` and every metadata key at the top level
/// (a request's `hb.request.method`, `hb.request.path`, `status`, `ms`). A line goes out in one
/// write(2), so lines from concurrent tasks never interleave.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        var object: [String: Any] = merged.mapValues(Self.plain)
        object["time"] = WireTime.formatMillis(WallClock.system.nowMillis())
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        if let error = event.error { object["error"] = "\(error)" }
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        line.append(0x0A)
        line.withUnsafeBytes { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    /// A metadata value as JSON: strings as they are, lists and dictionaries nested.
    static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let members): members.mapValues(plain)
        }
    }
}
