import ArgumentParser
import Foundation
import OnTheMapServer

/// `--secret-file`: where the server's secret is (`ServerSecret`), created on first use. It stays
/// out of the database and of its backups; every instance of one database must read the same one.
struct SecretOptions: ParsableArguments {
    @Option(name: .customLong(ServerSetting.secretFile.name), help: ServerSetting.secretFile.help)
    var secretFile: String?

    @Flag(name: .customLong(ServerSetting.adoptSecret.name), help: ServerSetting.adoptSecret.help)
    var adoptSecret = false

    /// The secret file's path: the flag, the variable, or the default for the database.
    func path(for database: DatabaseOptions.Location) throws -> String {
        let defaultPath: String
        switch database {
        case .sqlite(let path): defaultPath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("onthemap.secret").path
        case .postgres: defaultPath = "./onthemap.secret"
        }
        return try ServerSetting.secretFile
            .value(secretFile, default: defaultPath, expected: "a file path") { $0.isEmpty ? nil : $0 }
    }

    /// Reads the secret a server made: a command that needs the servers' own never makes one.
    func existingSecret(for database: DatabaseOptions.Location) throws -> ServerSecret {
        let path = try path(for: database)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("there is no secret file at \(path): start the server once, or pass the servers' one with --secret-file.")
        }
        return try secret(for: database)
    }

    /// Reads the secret, or creates its file (readable by its owner only) when there is none.
    func secret(for database: DatabaseOptions.Location) throws -> ServerSecret {
        let path = try path(for: database)
        if !FileManager.default.fileExists(atPath: path) { try Self.create(path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the secret file \(path).")
        }
        guard let secret = ServerSecret(text: String(decoding: data, as: UTF8.self)) else {
            throw CommandFailure("the secret file \(path) must hold at least 32 characters (e.g. the output of openssl rand -hex 32).")
        }
        return secret
    }

    /// Writes a new secret whole beside `path`, then links it in: instances starting together on
    /// one machine (a cluster's first start) end up reading the one file that won, never a half
    /// written one or each its own.
    private static func create(_ path: String) throws {
        let temporary = path + ".\(ProcessInfo.processInfo.processIdentifier).new"
        guard FileManager.default.createFile(
            atPath: temporary, contents: Data(ServerSecret.newFileText().utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CommandFailure("cannot create the secret file \(path); give a writable path with --secret-file (or ONTHEMAP_SECRET_FILE).")
        }
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 || errno == EEXIST else {
            throw CommandFailure("cannot create the secret file \(path): \(String(cString: strerror(errno))).")
        }
    }
}
