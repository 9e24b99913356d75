import ArgumentParser
import Foundation

/// Reads a setting from its flag, else its `ONTHEMAP_…` variable, else a default; a bad value names
/// where it came from.
struct Setting {
    let flag: String
    let variable: String

    /// The raw text from the flag or the environment, and which of them gave it.
    func raw(_ flagValue: String?) -> (text: String, source: String)? {
        if let flagValue { return (flagValue, flag) }
        if let value = ProcessInfo.processInfo.environment[variable] { return (value, variable) }
        return nil
    }

    /// The setting converted by `parse`, which returns nil for a bad value.
    func value<T>(_ flagValue: String?, default defaultValue: T, expected: String, parse: (String) -> T?) throws -> T {
        guard let (text, source) = raw(flagValue) else { return defaultValue }
        guard let value = parse(text) else {
            throw ValidationError("\(source) must be \(expected); got \"\(text)\".")
        }
        return value
    }
}
