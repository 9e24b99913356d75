import ArgumentParser
import Foundation
import OnTheMapSQLite

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

/// `--database` and how it is opened, shared by every subcommand that opens the store.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("SQLite database file, created if missing (env ONTHEMAP_DATABASE; default ./onthemap.sqlite).", valueName: "path"))
    var database: String?

    @Option(name: .customLong("database-readers"), help: ArgumentHelp(
        "Read-only connections, so this many reads run at once beside the one writer (env ONTHEMAP_DATABASE_READERS; default 4).",
        valueName: "count"))
    var readers: String?

    @Option(name: .customLong("read-budget-ms"), help: ArgumentHelp(
        "Milliseconds one database read may run before it is stopped and answered 503 (env ONTHEMAP_READ_BUDGET_MS; default 250).",
        valueName: "ms"))
    var readBudget: String?

    @Option(name: .customLong("write-queue"), help: ArgumentHelp(
        "Writes that may wait for the database writer; more are answered 503 (env ONTHEMAP_WRITE_QUEUE; default 1024).",
        valueName: "count"))
    var writeQueue: String?

    static let setting = Setting(flag: "--database", variable: "ONTHEMAP_DATABASE")

    /// The path to open; created if missing.
    func path() throws -> String {
        try Self.setting.value(database, default: "./onthemap.sqlite", expected: "a file path") { $0.isEmpty ? nil : $0 }
    }

    /// Pool size, read budget and the writer's line.
    func options() throws -> SQLiteDatabaseFile.Options {
        var options = SQLiteDatabaseFile.Options()
        options.readers = try Setting(flag: "--database-readers", variable: "ONTHEMAP_DATABASE_READERS")
            .value(readers, default: options.readers, expected: "a whole number from 1 to 64") { Int($0).flatMap { (1...64).contains($0) ? $0 : nil } }
        options.readBudget = try Setting(flag: "--read-budget-ms", variable: "ONTHEMAP_READ_BUDGET_MS")
            .value(readBudget, default: options.readBudget, expected: "a whole number of milliseconds from 1 to 600000") {
                Int64($0).flatMap { (1...600_000).contains($0) ? .milliseconds($0) : nil }
            }
        options.maxPendingWrites = try Setting(flag: "--write-queue", variable: "ONTHEMAP_WRITE_QUEUE")
            .value(writeQueue, default: options.maxPendingWrites, expected: "a whole number from 1 to 1000000") {
                Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
            }
        return options
    }
}
