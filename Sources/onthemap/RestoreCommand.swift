import ArgumentParser
import Foundation
import Logging
import OnTheMapPostgres
import OnTheMapSQLite
import OnTheMapStore

/// `onthemap restore FILE`: puts a backup made by `onthemap backup` back into the database.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace what the database holds with a backup made by `onthemap backup`.",
        discussion: """
            Stop the servers that use the database first, and start them again after. A SQLite backup restores \
            into either engine: its accounts, sessions, locations and moderation record are copied and verified as copy-data does. \
            A PostgreSQL backup (pg_dump's custom format) restores into PostgreSQL with pg_restore, in one \
            transaction. A database that holds data is refused unless --replace is given.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The backup file.", valueName: "file"))
    var file: String

    @Flag(help: "Replace what the database holds (without it, a database with data is refused).")
    var replace = false

    func run() async throws {
        guard FileManager.default.fileExists(atPath: file) else { throw CommandFailure("restore: there is no file \(file)") }
        var logger = Logger(label: "onthemap")
        logger.logLevel = .warning
        if PostgresDump.isDump(file) {
            try await restoreDump(logger: logger)
        } else if SQLiteBackup.isDatabase(file) {
            try await restoreCopy(logger: logger)
        } else {
            throw CommandFailure("restore: \(file) is not a backup made by onthemap backup (neither a SQLite file nor a pg_dump archive)")
        }
    }

    /// A SQLite backup: checked, opened from a scratch copy (the backup itself is never changed),
    /// and copied into the database.
    private func restoreCopy(logger: Logger) async throws {
        do {
            _ = try await SQLiteBackup.check(file)
        } catch let error as SQLiteBackupError {
            throw CommandFailure("restore: \(error.description)")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-restore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent("backup.sqlite").path
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        let source = try await database.open(.sqlite(path: copy), logger: logger)
        let target: any DatabaseEngine
        do {
            target = try await database.open(logger: logger)
        } catch {
            try? await source.close()
            throw error
        }
        let copied: Result<[DataCopy.TableReport], any Error>
        do {
            copied = .success(try await DataCopy.run(from: source.store, to: target.store, replace: replace))
        } catch {
            copied = .failure(error)
        }
        try? await source.close()
        try await target.close()
        switch copied {
        case .success(let reports):
            for report in reports { print("\(report.table): \(report.rows) rows restored, sha256 \(report.checksum.prefix(16))… (same as the backup)") }
            print("Restored \(file).")
        case .failure(let failure as DataCopy.Failure):
            throw CommandFailure("restore: \(failure.description)")
        case .failure(let error):
            throw error
        }
    }

    /// A pg_dump archive: into PostgreSQL only, refused over data unless --replace.
    private func restoreDump(logger: Logger) async throws {
        guard case .postgres(let address) = try database.location() else {
            throw CommandFailure("restore: \(file) is a PostgreSQL backup; restore it into a postgres:// database (or copy-data from there)")
        }
        let target = try await database.open(logger: logger)
        let held = try await DataCopy.counts(in: target.store)
        try await target.close()
        if DataCopy.holdsData(held), !replace {
            throw CommandFailure("restore: \(DataCopy.Failure.targetNotEmpty(counts: held).description)")
        }
        do {
            try PostgresDump.restore(file, into: address)
        } catch {
            throw CommandFailure("restore: \(error)")
        }
        // The dump brought its own event log: a new epoch makes every stream reload instead.
        let restored = try await database.open(logger: logger)
        do {
            try await restored.store.startLocationEventEpoch()
        } catch {
            try? await restored.close()
            throw error
        }
        try await restored.close()
        print("Restored \(file) into \(address) with pg_restore.")
    }
}
