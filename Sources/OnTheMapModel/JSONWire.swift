import Foundation

/// The one configuration of every JSON this service writes (answers, exports, the CLI's JSON
/// lines, the web client's settings): links stay readable (`https://`, not `https:\/\/`) and keys
/// come sorted, so identical data always gives identical bytes (and so identical ETags and export
/// files; Foundation's own key order on Linux changes from run to run).
public enum JSONWire {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }
}
