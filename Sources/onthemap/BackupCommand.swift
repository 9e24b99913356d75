import ArgumentParser
import Foundation
import OnTheMapPostgres
import OnTheMapSQLite
import OnTheMapStore
import OnTheMapModel

/// `onthemap backup FILE`: a consistent copy of the database, made while servers keep running.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database to FILE, consistently, while servers keep running.",
        discussion: """
            The copy holds every write acknowledged before it began. SQLite: a single SQLite file made with \
            SQLite's online backup, checked (integrity and tables) before it is given its name. PostgreSQL: \
            pg_dump's custom format (PostgreSQL's client tools must be installed), only the schema= schema if the \
            URL names one. FILE must not exist. `onthemap restore FILE` puts a backup back.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("Where to write the backup; must not exist.", valueName: "file"))
    var file: String

    func run() async throws {
        let started = ContinuousClock.now
        switch try database.location() {
        case .sqlite(let path):
            let summary: SQLiteBackup.Summary
            do {
                summary = try await SQLiteBackup.make(from: path, to: file)
            } catch let error as SQLiteBackupError {
                throw CommandFailure("backup: \(error.description)")
            }
            let rows = summary.rows.map { "\($0.count) \($0.table)" }.joined(separator: ", ")
            print("Backed up \(path) to \(file): \(rows); \(summary.bytes) bytes in \(Self.elapsed(since: started)).")
        case .postgres(let address):
            guard !FileManager.default.fileExists(atPath: file) else {
                throw CommandFailure("backup: \(file) already exists; a backup never overwrites a file")
            }
            do {
                try await WholeFile.write(to: file) { partial in try PostgresDump.backup(address, to: partial) }
            } catch {
                throw CommandFailure("backup: \(error)")
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            print("Backed up \(address) to \(file) (pg_dump custom format): \(bytes) bytes in \(Self.elapsed(since: started)).")
        }
    }

    static func elapsed(since start: ContinuousClock.Instant) -> String {
        "\(Int((ContinuousClock.now - start).milliseconds)) ms"
    }
}
