import ArgumentParser
import Foundation
import Logging
import OnTheMapStore

/// `onthemap copy-data`: moves a course between engines (SQLite ⇄ PostgreSQL) or databases.
struct CopyDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy-data",
        abstract: "Copy accounts, sessions, locations and the moderation record from one database to another, and verify the copy.",
        discussion: """
            Either side is a SQLite file or a postgres:// URL; the target's schema is created or brought up to date. \
            The copy is verified: the same number of rows and the same SHA-256 of every value, read back from both. \
            Stop the servers that write to the source first. A target that holds data is refused unless --replace is given.
            """)

    @Option(help: ArgumentHelp("The database to copy from: a SQLite file or a postgres:// URL.", valueName: "path|url"))
    var from: String

    @Option(help: ArgumentHelp("The database to copy into: a SQLite file (created if missing) or a postgres:// URL.", valueName: "path|url"))
    var to: String

    @Flag(help: "Delete everything the target holds before copying.")
    var replace = false

    func validate() throws {
        _ = try DatabaseOptions.location(from, source: "--from")
        _ = try DatabaseOptions.location(to, source: "--to")
        guard from != to else { throw ValidationError("--from and --to name the same database.") }
    }

    func run() async throws {
        var logger = Logger(label: "onthemap")
        logger.logLevel = .warning
        // The pool sizes and budgets a server would use (read from ONTHEMAP_… variables, if set).
        let options = try DatabaseOptions.parse([])
        if case .sqlite(let path) = try DatabaseOptions.location(from, source: "--from"), !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("cannot copy from \(path): there is no such file.")
        }
        let source = try await options.open(try DatabaseOptions.location(from, source: "--from"), logger: logger)
        let target: any DatabaseEngine
        do {
            target = try await options.open(try DatabaseOptions.location(to, source: "--to"), logger: logger)
        } catch {
            try? await source.close()
            throw error
        }
        do {
            let reports = try await DataCopy.run(from: source.store, to: target.store, replace: replace)
            for report in reports {
                print("\(report.table): \(report.rows) rows, sha256 \(report.checksum.prefix(16))… (same on both sides)")
            }
            print("Copied and verified.")
        } catch let failure as DataCopy.Failure {
            try? await source.close()
            try? await target.close()
            throw CommandFailure("copy-data: \(failure.description)")
        }
        try await source.close()
        try await target.close()
    }
}
