import Foundation
import GRDB
import NIOPosix
import OnTheMapStore

/// A consistent copy of a database file while servers keep writing to it: SQLite's online backup
/// API run from one read transaction, so the copy holds every write committed before it began and
/// none after. It is written beside the target, checked (integrity and the service's tables), and
/// only then renamed into place: a backup file that exists is complete.
public enum SQLiteBackup {
    /// The tables a backup must hold, with their rows.
    public struct Summary: Sendable {
        public let rows: [(table: String, count: Int)]
        public let bytes: Int
    }

    static let tables = ["accounts", "sessions", "student_locations"]

    /// True when the file at `path` starts like a SQLite database.
    public static func isDatabase(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\u{0}".utf8)
    }

    /// Copies the database at `source` to `target`, which must not exist.
    public static func make(from source: String, to target: String) async throws -> Summary {
        guard !FileManager.default.fileExists(atPath: target) else {
            throw SQLiteBackupError("\(target) already exists; a backup never overwrites a file")
        }
        guard FileManager.default.fileExists(atPath: source) else { throw SQLiteBackupError("there is no database at \(source)") }
        do {
            return try await WholeFile.write(to: target) { partial in
                try await NIOThreadPool.singleton.runIfActive {
                    var configuration = Configuration()
                    configuration.busyMode = .timeout(5)
                    let from = try DatabasePool(path: source, configuration: configuration)
                    let into = try DatabaseQueue(path: partial)
                    try from.backup(to: into)
                    // The copy takes the source's WAL mode with its pages: one file, no -wal or -shm
                    // beside it, is what a backup should be.
                    try into.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
                    try into.close()
                    try from.close()
                }
                return try await check(partial)
            }
        } catch {
            if let error = error as? SQLiteBackupError { throw error }
            throw SQLiteBackupError("backing up \(source): \(error)")
        }
    }

    /// Checks that `path` is a sound On The Map database and counts its rows.
    public static func check(_ path: String) async throws -> Summary {
        let rows = try await NIOThreadPool.singleton.runIfActive { () throws -> [(table: String, count: Int)] in
            var configuration = Configuration()
            configuration.readonly = true
            let database = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? database.close() }
            return try database.read { db in
                let integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer"
                guard integrity == "ok" else { throw SQLiteBackupError("\(path) is damaged: \(integrity)") }
                return try tables.map { table in
                    guard try db.tableExists(table) else { throw SQLiteBackupError("\(path) is not an On The Map database (no \(table) table)") }
                    return (table, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0)
                }
            }
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Summary(rows: rows, bytes: bytes)
    }
}

/// A backup could not be made or checked; says why.
public struct SQLiteBackupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
