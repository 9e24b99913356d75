import Foundation

/// A file that exists only once complete: it is written under `path.partial`, renamed into place
/// when the writing succeeded, and the partial file removed when it failed. Backups and exports
/// use it, so a file found at `path` is never a half-written one.
public enum WholeFile {
    /// The name written to until the file is complete.
    public static func partialPath(for path: String) -> String { path + ".partial" }

    /// Runs `write` with the partial path to write to, then renames it to `path`; on failure
    /// removes what was written and rethrows.
    public static func write<Result>(to path: String, _ write: (_ partialPath: String) async throws -> Result) async throws -> Result {
        let partial = partialPath(for: path)
        try? FileManager.default.removeItem(atPath: partial)
        do {
            let result = try await write(partial)
            try FileManager.default.moveItem(atPath: partial, toPath: path)
            return result
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
    }
}
