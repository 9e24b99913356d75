import ArgumentParser
import Logging
import OnTheMapPostgres
import OnTheMapSQLite
import OnTheMapStore

/// `--database` and how it is opened, shared by every subcommand that opens the store: a
/// `postgres://` URL means PostgreSQL, anything else is a SQLite file. The one place an engine is
/// chosen.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ServerSetting.database.help)
    var database: String?

    @Option(name: .customLong(ServerSetting.databasePooler.name), help: ServerSetting.databasePooler.help)
    var pooler: String?

    @Option(name: .customLong(ServerSetting.databaseReplicas.name), help: ServerSetting.databaseReplicas.help)
    var replicas: String?

    @Option(name: .customLong(ServerSetting.databaseReplicaLag.name), help: ServerSetting.databaseReplicaLag.help)
    var replicaLag: String?

    @Option(name: .customLong(ServerSetting.databaseReaders.name), help: ServerSetting.databaseReaders.help)
    var readers: String?

    @Option(name: .customLong(ServerSetting.databaseWriters.name), help: ServerSetting.databaseWriters.help)
    var writers: String?

    @Option(name: .customLong(ServerSetting.readBudget.name), help: ServerSetting.readBudget.help)
    var readBudget: String?

    @Option(name: .customLong(ServerSetting.writeQueue.name), help: ServerSetting.writeQueue.help)
    var writeQueue: String?

    /// What `--database` names.
    enum Location {
        case sqlite(path: String)
        case postgres(PostgresAddress)
    }

    func location() throws -> Location {
        let setting = ServerSetting.database
        let text = try setting.value(database, default: ServerSetting.defaultDatabase, expected: "a file path or a postgres:// URL") { $0.isEmpty ? nil : $0 }
        return try Self.location(text, source: setting.raw(database)?.source ?? "--database")
    }

    /// A SQLite path or a PostgreSQL URL; a bad URL names `source` (the flag or variable).
    static func location(_ text: String, source: String) throws -> Location {
        guard PostgresAddress.isAddress(text) else { return .sqlite(path: text) }
        do {
            return .postgres(try PostgresAddress(text))
        } catch {
            throw ValidationError("\(source): \(error.description).")
        }
    }

    /// Checks every database setting without opening anything.
    func validate() throws {
        _ = try location()
        _ = try sqliteOptions()
        _ = try postgresOptions()
    }

    /// Opens the database the settings name and brings its schema up to date; a failure is one line.
    func open(logger: Logger) async throws -> any DatabaseEngine {
        try await open(try location(), logger: logger)
    }

    /// Opens `location` with these options.
    func open(_ location: Location, logger: Logger) async throws -> any DatabaseEngine {
        do {
            switch location {
            case .sqlite(let path):
                return try await SQLiteDatabaseFile.open(path: path, options: try sqliteOptions(), logger: logger)
            case .postgres(let address):
                return try await PostgresEngine.open(address, options: try postgresOptions(), logger: logger)
            }
        } catch let error as DatabaseOpenError {
            throw CommandFailure(error.description)
        } catch let error as DatabaseConnectError {
            throw CommandFailure(error.description)
        }
    }

    private func sqliteOptions() throws -> SQLiteDatabaseFile.Options {
        var options = SQLiteDatabaseFile.Options()
        options.readers = try readerCount(default: options.readers)
        options.readBudget = try budget(default: options.readBudget)
        options.maxPendingWrites = try queue(default: options.maxPendingWrites)
        return options
    }

    private func postgresOptions() throws -> PostgresEngine.Options {
        var options = PostgresEngine.Options()
        options.readers = try readerCount(default: options.readers)
        options.writers = try ServerSetting.databaseWriters
            .value(writers, default: options.writers, expected: "a whole number from 1 to 64") { Int($0).flatMap { (1...64).contains($0) ? $0 : nil } }
        options.readBudget = try budget(default: options.readBudget)
        options.maxPendingWrites = try queue(default: options.maxPendingWrites)
        options.pooler = try address(ServerSetting.databasePooler, pooler, role: .primary, naming: "the pooler(s)")
        options.replicas = try address(ServerSetting.databaseReplicas, replicas, role: .standbys, naming: "the standbys")
        options.maxReplicaLag = try ServerSetting.databaseReplicaLag
            .value(replicaLag, default: options.maxReplicaLag, expected: "a whole number of milliseconds from 1 to 600000") {
                Int64($0).flatMap { (1...600_000).contains($0) ? .milliseconds($0) : nil }
            }
        return options
    }

    /// Whether reads may go to standbys (`--database-replicas`): the server then tells them who wrote lately.
    var readsFromStandbys: Bool { (try? postgresOptions().replicas) != nil }

    /// `--database-pooler` (one PgBouncer per host of the database URL) or `--database-replicas`.
    private func address(_ setting: ServerSetting, _ flag: String?, role: PostgresAddress.Role, naming what: String) throws -> PostgresAddress? {
        guard let (text, source) = setting.raw(flag), !text.isEmpty else { return nil }
        guard PostgresAddress.isAddress(text) else { throw ValidationError("\(source): must be a postgres:// URL naming \(what).") }
        do {
            return try PostgresAddress(text, role: role)
        } catch {
            throw ValidationError("\(source): \(error.description).")
        }
    }

    private func readerCount(default value: Int) throws -> Int {
        try ServerSetting.databaseReaders
            .value(readers, default: value, expected: "a whole number from 1 to 64") { Int($0).flatMap { (1...64).contains($0) ? $0 : nil } }
    }

    private func budget(default value: Duration) throws -> Duration {
        try ServerSetting.readBudget
            .value(readBudget, default: value, expected: "a whole number of milliseconds from 1 to 600000") {
                Int64($0).flatMap { (1...600_000).contains($0) ? .milliseconds($0) : nil }
            }
    }

    private func queue(default value: Int) throws -> Int {
        try ServerSetting.writeQueue
            .value(writeQueue, default: value, expected: "a whole number from 1 to 1000000") { Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil } }
    }
}
