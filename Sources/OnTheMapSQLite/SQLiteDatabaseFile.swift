import Foundation
import Logging
import NIOPosix
import SQLiteKit

/// An open SQLite database file, set up for a server: WAL so readers never wait for the writer,
/// `synchronous=FULL` so an answered write survives a power cut, foreign keys on, and a busy timeout
/// so that the CLI and the server can share the file.
public final class SQLiteDatabaseFile: Sendable {
    public let path: String
    let connection: SQLiteConnection

    /// The store over this file.
    public var store: SQLStore { SQLStore(database: connection.sql()) }

    private init(path: String, connection: SQLiteConnection) {
        self.path = path
        self.connection = connection
    }

    /// Opens (creating if needed) the file at `path` and applies the migrations.
    public static func open(path: String, logger: Logger) async throws -> SQLiteDatabaseFile {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory) else {
            throw DatabaseOpenError(path: path, reason: "the folder \(directory) does not exist")
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw DatabaseOpenError(path: path, reason: "\(error)")
        }
        let file = SQLiteDatabaseFile(path: path, connection: connection)
        do {
            for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL",
                           "PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = 5000"] {
                _ = try await connection.query(pragma)
            }
            try await file.store.migrate(logger: logger)
        } catch {
            try? await connection.close()
            throw DatabaseOpenError(path: path, reason: "\(error)")
        }
        return file
    }

    /// Closes the connection.
    public func close() async throws {
        try await connection.close()
    }
}

/// The database could not be opened or set up; says which file and why.
public struct DatabaseOpenError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "cannot open database \(path): \(reason)" }
}
