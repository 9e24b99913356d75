import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL database is and how to reach it, read from a libpq-style URL:
///
///     postgres://user:password@host:5432/name?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem
///
/// `sslmode` means what it means to libpq (`disable`, `allow` and `prefer` try TLS without checking
/// the certificate, `require` insists on TLS, `verify-ca` also checks the chain, `verify-full` the
/// host name too); `host=/run/postgresql` reaches a local server over its Unix socket; `schema=…`
/// keeps this service's tables in their own schema, so that several courses can share a database.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require, verifyCA = "verify-ca", verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    /// The directory of the server's Unix socket, when it is reached that way.
    public var socketDirectory: String?
    public var username: String
    public var password: String?
    public var database: String
    public var tlsMode: TLSMode
    /// A file of CA certificates to check the server's certificate against, rather than the system's.
    public var rootCertificatePath: String?
    /// Where the tables live; nil for the user's default search path (normally `public`).
    public var schema: String?

    /// True for text that names a PostgreSQL database rather than a SQLite file.
    public static func isAddress(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads the URL, or says what is wrong with it (without repeating the password).
    public init(_ text: String) throws(PostgresAddressError) {
        guard Self.isAddress(text), let components = URLComponents(string: text) else {
            throw PostgresAddressError("must look like postgres://user:password@host:5432/database")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name.lowercased(), $0.value ?? "") }, uniquingKeysWith: { $1 })
        let known: Set = ["sslmode", "sslrootcert", "host", "schema", "application_name"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw PostgresAddressError("has an unknown parameter \(unknown) (known: \(known.sorted().joined(separator: ", ")))")
        }
        guard let user = components.user, !user.isEmpty else { throw PostgresAddressError("needs a user name: postgres://user@host/database") }
        let name = String(components.path.drop { $0 == "/" })
        guard !name.isEmpty, !name.contains("/") else { throw PostgresAddressError("needs a database name after the host: postgres://user@host/database") }
        username = user
        password = components.password
        database = name
        port = components.port ?? 5432
        socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        if components.host?.isEmpty ?? true, socketDirectory == nil {
            throw PostgresAddressError("needs a host: postgres://user@host/database, or ?host=/run/postgresql for a local socket")
        }
        let mode = query["sslmode"] ?? (socketDirectory == nil ? "prefer" : "disable")
        guard let tlsMode = TLSMode(rawValue: mode) else {
            throw PostgresAddressError("has sslmode=\(mode); expected one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.tlsMode = tlsMode
        rootCertificatePath = query["sslrootcert"].flatMap { $0.isEmpty ? nil : $0 }
        if let schema = query["schema"] {
            guard schema.wholeMatch(of: /[a-z_][a-z0-9_]{0,39}/) != nil else {
                throw PostgresAddressError("has schema=\(schema); a schema name here is up to 40 lowercase letters, digits and _, not starting with a digit")
            }
            self.schema = schema
        }
    }

    /// The URL with the password hidden, for logs and error messages.
    public var description: String {
        let credentials = password == nil ? username : "\(username):***"
        let parameters = [socketDirectory.map { "host=\($0)" }, schema.map { "schema=\($0)" }].compactMap { $0 }
        return "postgres://\(credentials)@\(socketDirectory == nil ? "\(host):\(port)" : "")/\(database)"
            + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
    }

    /// The pool's connection settings; `parameters` are sent at connection start (`statement_timeout`…).
    func clientConfiguration(parameters: [(String, String)], maxConnections: Int) throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        } else {
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls())
        }
        var startup = parameters + [("application_name", "onthemap")]
        if let schema { startup.append(("search_path", schema)) }
        configuration.options.additionalStartupParameters = startup
        configuration.options.maximumConnections = maxConnections
        configuration.options.minimumConnections = 0
        return configuration
    }

    /// Connects once, directly, and says why that fails (the pool retries an unreachable or
    /// refusing server quietly): the server's own words for a refused login or a missing
    /// `pg_hba.conf` line, the TLS library's for a certificate that does not verify. Nil when the
    /// connection works, and when it merely did not answer within five seconds.
    func whyConnectingFails(logger: Logger) async -> String? {
        do {
            var configuration: PostgresConnection.Configuration
            if let socketDirectory {
                configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password, database: database)
            } else {
                let tls = try connectionTLS()
                configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
            }
            configuration.options.connectTimeout = .seconds(5)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try await connection.close()
            return nil
        } catch let error as PSQLError where error.underlying is ChannelError {
            // A slow answer (a busy machine, a server still starting) says nothing about why: the
            // caller keeps waiting for its own deadline. A refused connection does say why.
            if case .connectTimeout = error.underlying as? ChannelError { return nil }
            return "\(String(reflecting: error))"
        } catch let error as PSQLError {
            return error.serverInfo?[.message] ?? "\(String(reflecting: error))"
        } catch {
            return "\(error)"
        }
    }

    /// The TLS settings libpq's `sslmode` asks for; nil for `disable`.
    private func tlsSettings() -> TLSConfiguration? {
        var settings = TLSConfiguration.makeClientConfiguration()
        if let rootCertificatePath { settings.trustRoots = .file(rootCertificatePath) }
        switch tlsMode {
        case .disable: return nil
        case .allow, .prefer: settings.certificateVerification = .none
        // As libpq does: with a root certificate named, `require` checks the chain like verify-ca.
        case .require: settings.certificateVerification = rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA: settings.certificateVerification = .noHostnameVerification
        case .verifyFull: settings.certificateVerification = .fullVerification
        }
        return settings
    }

    /// `allow` and `prefer` fall back to plain TCP when the server offers no TLS; the rest insist.
    private var tlsRequired: Bool { tlsMode != .allow && tlsMode != .prefer }

    private func tls() -> PostgresClient.Configuration.TLS {
        guard let settings = tlsSettings() else { return .disable }
        return tlsRequired ? .require(settings) : .prefer(settings)
    }

    private func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        guard let settings = tlsSettings() else { return .disable }
        let context = try NIOSSLContext(configuration: settings)
        return tlsRequired ? .require(context) : .prefer(context)
    }
}

/// A database URL that cannot be used, and why.
public struct PostgresAddressError: Error, CustomStringConvertible {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { "the PostgreSQL URL \(reason)" }
}
