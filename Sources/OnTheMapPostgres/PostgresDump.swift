import Foundation

/// Backups of a PostgreSQL database with the server's own tools: `pg_dump` in its custom format
/// (one consistent snapshot, whatever is written meanwhile) and `pg_restore` in one transaction.
/// The address is handed over as libpq's environment, so the password is never on a command line;
/// a `schema=` address dumps and restores that schema only.
public enum PostgresDump {
    /// The first bytes of a custom-format dump.
    static let magic = Data("PGDMP".utf8)

    /// True when the file at `path` is a `pg_dump` custom-format archive.
    public static func isDump(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: magic.count)) == magic
    }

    /// Writes a dump of the database at `address` to `file`.
    public static func backup(_ address: PostgresAddress, to file: String) throws {
        var arguments = ["--format=custom", "--no-owner", "--no-privileges", "--file=\(file)"]
        if let schema = address.schema { arguments.append("--schema=\(schema)") }
        try run("pg_dump", arguments, address)
    }

    /// Replaces what the database at `address` holds with the dump in `file`: tables dropped and
    /// recreated, all in one transaction (a failure leaves the database as it was).
    public static func restore(_ file: String, into address: PostgresAddress) throws {
        var arguments = ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
                         "--dbname=\(address.database)"]
        if let schema = address.schema { arguments.append("--schema=\(schema)") }
        try run("pg_restore", arguments + [file], address)
    }

    /// libpq's environment for `address`.
    static func environment(_ address: PostgresAddress) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        // libpq takes the same host list; a dump and a restore are of the primary, wherever it is.
        environment["PGHOST"] = address.socketDirectory ?? address.endpoints.map(\.host).joined(separator: ",")
        environment["PGPORT"] = address.endpoints.map { String($0.port) }.joined(separator: ",")
        if address.movesBetweenHosts { environment["PGTARGETSESSIONATTRS"] = "read-write" }
        environment["PGUSER"] = address.username
        environment["PGDATABASE"] = address.database
        environment["PGPASSWORD"] = address.password
        environment["PGSSLMODE"] = address.tlsMode.rawValue
        environment["PGSSLROOTCERT"] = address.rootCertificatePath
        environment["PGAPPNAME"] = "onthemap"
        return environment
    }

    /// Runs `tool` (from PATH, else Debian's newest /usr/lib/postgresql/*/bin) and throws its
    /// own words when it fails.
    static func run(_ tool: String, _ arguments: [String], _ address: PostgresAddress) throws {
        guard let executable = locate(tool) else {
            throw PostgresDumpError("\(tool) was not found: install PostgreSQL's client tools (Debian: postgresql-client)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment(address)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw PostgresDumpError("\(tool) failed (status \(process.terminationStatus)): \(text)")
        }
    }

    static func locate(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let debian = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        return (path.split(separator: ":").map(String.init) + debian)
            .map { "\($0)/\(tool)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// `pg_dump` or `pg_restore` could not run or failed; says which and why.
public struct PostgresDumpError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
