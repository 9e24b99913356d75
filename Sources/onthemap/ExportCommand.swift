import ArgumentParser
import Foundation
import Logging
import OnTheMapModel
import OnTheMapStore

extension ExportFormat: ExpressibleByArgument {}

/// `onthemap export`: every location as GeoJSON, CSV or JSON lines; with `--accounts`, every account.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every location of a course as GeoJSON, CSV or JSON lines.",
        discussion: """
            Each location has the ten fields the API sends (objectId, uniqueKey, firstName, lastName, mapString, \
            mediaURL, latitude, longitude, createdAt, updatedAt); no account data. GeoJSON puts each at its point, \
            for map tools. The default course's unless --course names another. CSV is RFC 4180 with a header row; text a spreadsheet would run as a formula gets a \
            leading apostrophe. Safe while servers run: pages are read in object id order. \
            With --accounts it writes the accounts instead, as CSV or JSON lines: key, email, names, isAdmin, \
            disabled, hasPassword, signInProviders, createdAt, lastLoginAt; never a password hash.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("geojson, csv or jsonl (default: from the output's extension, else geojson).", valueName: "format"))
    var format: ExportFormat?

    @Flag(help: "Write the accounts (no password hashes) rather than the locations, as csv or jsonl.")
    var accounts = false

    @Option(help: ArgumentHelp("The course whose locations to write (its slug; default: the default course).", valueName: "slug"))
    var course: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (default: standard output). It is written whole or not at all.", valueName: "file"))
    var output: String?

    func validate() throws {
        if accounts, chosenFormat == .geojson {
            throw ValidationError("--accounts writes csv or jsonl: accounts have no place on a map.")
        }
        if accounts, course != nil { throw ValidationError("--accounts writes every account: accounts belong to no one course.") }
    }

    private var chosenFormat: ExportFormat {
        format ?? output.flatMap { ExportFormat(rawValue: URL(fileURLWithPath: $0).pathExtension.lowercased()) } ?? (accounts ? .csv : .geojson)
    }

    func run() async throws {
        let chosen = chosenFormat
        let exportAll = { (engine: any DatabaseEngine, write: (String) async throws -> Void) async throws -> Int in
            if accounts { return try await engine.store.exportAccounts(as: chosen, to: write) }
            let slug = CourseSlug(rawValue: course ?? "default")
            return try await engine.store.export(try await CourseOption.course(course, in: engine.store), named: slug, as: chosen, to: write)
        }
        if let output, FileManager.default.fileExists(atPath: output) {
            throw CommandFailure("export: \(output) already exists")
        }
        var logger = Logger(label: "onthemap")
        logger.logLevel = .warning
        let engine = try await database.open(logger: logger)
        let count: Int
        do {
            if let output {
                count = try await WholeFile.write(to: output) { partial in
                    guard FileManager.default.createFile(atPath: partial, contents: nil) else { throw CommandFailure("cannot write \(partial)") }
                    let sink = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
                    defer { try? sink.close() }
                    let count = try await exportAll(engine) { sink.write(Data($0.utf8)) }
                    try sink.synchronize()
                    return count
                }
            } else {
                count = try await exportAll(engine) { FileHandle.standardOutput.write(Data($0.utf8)) }
            }
        } catch {
            try? await engine.close()
            throw CommandFailure("export: \(error)")
        }
        try await engine.close()
        if let output { print("Exported \(count) \(accounts ? "accounts" : "locations") to \(output) (\(chosen.rawValue)).") }
    }
}
