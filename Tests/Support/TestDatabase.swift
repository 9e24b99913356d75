import Foundation
import Logging
import OnTheMapPostgres
import OnTheMapSQLite
import OnTheMapStore
import PostgresNIO

/// The engine the suites run on. `make test` runs every suite twice: on SQLite, then with
/// `ONTHEMAP_TEST_POSTGRES` set to a throwaway cluster's URL (`scripts/test/postgres-test.sh with …`).
public enum TestEngine: String, Sendable {
    case sqlite, postgres

    public static let postgresURL = ProcessInfo.processInfo.environment["ONTHEMAP_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    public static let current: TestEngine = postgresURL == nil ? .sqlite : .postgres
}

/// A fresh, empty database of the current engine: a SQLite file in its own folder, or a schema of
/// its own in the test cluster. `open` can open it more than once, as a second process (the CLI)
/// or a second server instance would. Removed afterwards.
public struct TestDatabase: Sendable {
    public let engine: TestEngine
    /// The file path or the URL (with `schema=`).
    public let location: String

    public static func withFresh<T>(_ body: (TestDatabase) async throws -> T) async throws -> T {
        switch TestEngine.current {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            return try await body(TestDatabase(engine: .sqlite, location: directory.appendingPathComponent("test.sqlite").path))
        case .postgres:
            let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(24).lowercased()
            let database = TestDatabase(engine: .postgres, location: TestEngine.postgresURL! + "?sslmode=disable&schema=\(schema)")
            do {
                let result = try await body(database)
                try await database.dropSchema(schema)
                return result
            } catch {
                try? await database.dropSchema(schema)
                throw error
            }
        }
    }

    /// Opens the database with the server's defaults, except a read budget far longer than any
    /// read takes on a machine busy with a hundred tests at once (only the suites about budgets
    /// set a short one).
    public func open(readBudget: Duration = .seconds(600), logger: Logger = .quiet) async throws -> any DatabaseEngine {
        switch engine {
        case .sqlite:
            var options = SQLiteDatabaseFile.Options()
            options.readBudget = readBudget
            return try await SQLiteDatabaseFile.open(path: location, options: options, logger: logger)
        case .postgres:
            var options = PostgresEngine.Options()
            options.readBudget = readBudget
            // Small pools: a hundred tests run at once against one cluster.
            options.readers = 3
            options.writers = 2
            // A hundred tests share two cores: a connection can be minutes away (scripts/test/fault-test.sh
            // tests the short deadline of a real server).
            options.leaseDeadline = .seconds(600)
            // Two hundred tests set up their schemas at once on two cores: give them time.
            return try await PostgresEngine.open(try PostgresAddress(location), options: options, connectTimeout: .seconds(300), logger: logger)
        }
    }

    private func dropSchema(_ schema: String) async throws {
        _ = try await withConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"), logger: .quiet)
        }
    }

    /// Runs `body` while a connection of its own (PostgreSQL) holds the advisory lock `key`, so
    /// that a test can make a statement wait for it.
    public func holdingAdvisoryLock<T: Sendable>(_ key: Int32, _ body: @Sendable () async throws -> T) async throws -> T {
        try await withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(Int64(key)))", logger: .quiet)
            let result = try await body()
            try await connection.query("SELECT pg_advisory_unlock(\(Int64(key)))", logger: .quiet)
            return result
        }
    }

    /// Runs `sql` (one statement) in this database's schema on a connection of its own (PostgreSQL),
    /// for a test that changes the schema under the store: a trigger that makes a commit fail.
    public func executeInSchema(_ sql: String) async throws {
        guard let schema = try PostgresAddress(location).schema else { throw NotASchemaOfItsOwn(location: location) }
        try await withConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(schema)"), logger: .quiet)
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet)
        }
    }

    /// A direct connection to the test cluster (not to the schema), closed after `body`.
    private func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let address = try PostgresAddress(location)
        var configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.username, password: address.password,
            database: address.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: .quiet)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// `executeInSchema` was asked of a database that is not a PostgreSQL schema of its own.
struct NotASchemaOfItsOwn: Error {
    let location: String
}

extension Logger {
    /// Errors only: the suites check behaviour, not log lines (except the suites about logs).
    public static var quiet: Logger {
        var logger = Logger(label: "onthemap-test")
        logger.logLevel = .error
        return logger
    }
}
