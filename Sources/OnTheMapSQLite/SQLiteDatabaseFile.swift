import Foundation
import GRDB
import Logging
import NIOCore
import NIOPosix
import OnTheMapStore

/// An open SQLite database file, set up for a server: WAL so that readers never wait for the
/// writer, `synchronous=FULL` so that an answered write survives a power cut, foreign keys on, and
/// a busy timeout so that the CLI and the server can share the file. One writer connection with
/// group commit, and a pool of `readers` read-only connections.
public final class SQLiteDatabaseFile: Sendable {
    /// How the file is opened; the defaults suit a server.
    public struct Options: Sendable {
        /// Read-only connections, so this many reads can run at once.
        public var readers = 4
        /// How long one read may run before it is stopped.
        public var readBudget: Duration = .milliseconds(250)
        /// Writes that may wait for the writer before more are refused.
        public var maxPendingWrites = 1024

        public init() {}
    }

    public let path: String
    let pool: DatabasePool
    let writer: SQLiteBatchWriter
    /// The store over this file.
    public let store: SQLStore

    private init(path: String, pool: DatabasePool, options: Options, logger: Logger) {
        self.path = path
        self.pool = pool
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let changes = LocationChangeFeed()
        writer = SQLiteBatchWriter(pool: pool, changes: changes, maxPending: options.maxPendingWrites, logger: logger, eventLoop: eventLoop)
        store = SQLStore(
            reader: SQLiteReader(pool: pool, budget: options.readBudget, logger: logger, eventLoop: eventLoop),
            writer: writer, flavour: SQLiteFlavour(), changes: changes)
    }

    /// Opens (creating if needed) the file at `path` and applies the migrations.
    public static func open(path: String, options: Options = Options(), logger: Logger) async throws -> SQLiteDatabaseFile {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory) else {
            throw DatabaseOpenError(path: path, reason: "the folder \(directory) does not exist")
        }
        var configuration = Configuration()
        configuration.maximumReaderCount = max(1, options.readers)
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.label = "onthemap"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Pages are read through a memory map rather than copied in by read(2), and each
            // connection keeps 16 MB of them: a page of 100 rows of a million costs a B-tree walk
            // per row, which this keeps in memory.
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
            try db.execute(sql: "PRAGMA cache_size = -16384")
        }
        let pool: DatabasePool
        do {
            // Opening blocks on file I/O (and an fsync to set up WAL): keep it off Swift's few
            // concurrency threads.
            pool = try await openPool(path: path, configuration: configuration)
            // GRDB turns the writer to synchronous=NORMAL when it enables WAL; durability needs FULL.
            try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        } catch {
            throw DatabaseOpenError(path: path, reason: "\(error)")
        }
        let file = SQLiteDatabaseFile(path: path, pool: pool, options: options, logger: logger)
        do {
            try await file.store.migrate(logger: logger)
        } catch {
            try? await file.close()
            throw DatabaseOpenError(path: path, reason: "\(error)")
        }
        return file
    }

    /// The pool on `path`. Setting up WAL takes the file's lock for a moment; another instance
    /// starting at once on a new file (migrating it, on a slow disk) may hold it for longer than the
    /// busy timeout, so a busy file is tried again for up to half a minute before it is an error.
    private static func openPool(path: String, configuration: Configuration) async throws -> DatabasePool {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do {
                return try await NIOThreadPool.singleton.runIfActive { try DatabasePool(path: path, configuration: configuration) }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// Answers the writes still waiting, then closes every connection.
    public func close() async throws {
        await writer.waitUntilIdle()
        try await NIOThreadPool.singleton.runIfActive { [pool] in try pool.close() }
    }
}

/// The database could not be opened or set up; says which file and why.
public struct DatabaseOpenError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "cannot open database \(path): \(reason)" }
}
