import ArgumentParser
import Foundation

/// One setting of `onthemap serve`, declared once: its flag, its environment variable, its default
/// (read from the value the server starts with, where there is one), and what it means. The flag's
/// help, the reading of its value and the README's configuration table (`onthemap settings`, which
/// cli-test holds the README to) all come from here.
struct ServerSetting: Sendable {
    /// `--port`.
    let flag: String
    /// `port`: the flag's long name.
    var name: String { String(flag.dropFirst(2)) }
    /// `ONTHEMAP_PORT`; nil for a switch, which only its flag sets.
    let variable: String?
    let valueName: String
    /// The default as the README's table writes it (Markdown).
    let defaultText: String
    /// What it does, in Markdown (the help shows it without the backticks).
    let meaning: String

    /// A setting read from `--flag`, else from `variable` (`ONTHEMAP_` and the flag in capitals
    /// unless named), or, for a switch (`flagOnly`), from its flag alone.
    init(
        _ flag: String, variable: String? = nil, flagOnly: Bool = false, valueName: String = "", default defaultText: String, _ meaning: String
    ) {
        self.flag = "--" + flag
        self.variable = flagOnly ? nil : variable ?? "ONTHEMAP_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
        self.valueName = valueName
        self.defaultText = defaultText
        self.meaning = meaning
    }

    /// The flag's help: the meaning, then where else it is read from and its default.
    var help: ArgumentHelp {
        let plainDefault = Self.plain(defaultText)
        let origin = variable.map { "env \($0); default \(plainDefault)" } ?? "default \(plainDefault)"
        return ArgumentHelp("\(Self.plain(meaning)) (\(origin)).", valueName: valueName.isEmpty ? nil : valueName)
    }

    /// The raw text from the flag or the environment, and which of them gave it.
    func raw(_ flagValue: String?) -> (text: String, source: String)? {
        if let flagValue { return (flagValue, flag) }
        if let variable, let value = ProcessInfo.processInfo.environment[variable] { return (value, variable) }
        return nil
    }

    /// The setting converted by `parse`, which returns nil for a bad value; a bad value names where
    /// it came from.
    func value<T>(_ flagValue: String?, default defaultValue: T, expected: String, parse: (String) -> T?) throws -> T {
        guard let (text, source) = raw(flagValue) else { return defaultValue }
        guard let value = parse(text) else {
            throw ValidationError("\(source) must be \(expected); got \"\(text)\".")
        }
        return value
    }

    /// Markdown made plain for a terminal: no backticks, a link's text without its target.
    static func plain(_ markdown: String) -> String {
        markdown.replacingOccurrences(of: "`", with: "")
            .replacingOccurrences(of: #"\[([^\]]*)\]\([^)]*\)"#, with: "$1", options: .regularExpression)
    }

    /// The README's configuration table.
    static var markdownTable: String {
        var lines = ["| flag | variable | default | meaning |", "|---|---|---|---|"]
        for setting in all {
            let cells = ["`\(setting.flag)`", setting.variable.map { "`\($0)`" } ?? "", setting.defaultText, setting.meaning]
            lines.append("| " + cells.joined(separator: " | ").replacingOccurrences(of: "|  |", with: "| |") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
