import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL database is and how to reach it, read from a libpq-style URL:
///
///     postgres://user:password@host:5432/name?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem
///     postgres://user:password@db1:5432,db2:5432/name?target_session_attrs=read-write
///
/// `sslmode` means what it means to libpq (`disable`, `allow` and `prefer` try TLS without checking
/// the certificate, `require` insists on TLS, `verify-ca` also checks the chain, `verify-full` the
/// host name too); `host=/run/postgresql` reaches a local server over its Unix socket; `schema=…`
/// keeps this service's tables in their own schema, so that several courses can share a database.
/// Several hosts name the machines a primary may be on (a pg_auto_failover or Patroni cluster): the
/// server writes to whichever accepts writes and follows it when it moves (`PostgresPrimary`).
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require, verifyCA = "verify-ca", verifyFull = "verify-full"
    }

    /// libpq's `target_session_attrs`: which of the hosts a connection is for.
    public enum TargetSessionAttributes: String, Sendable, CaseIterable {
        case any, readWrite = "read-write", primary, readOnly = "read-only", standby, preferStandby = "prefer-standby"
    }

    /// What a URL is for: the database's primary (every write, and reads unless standbys are
    /// named), or the standbys that may take reads.
    public enum Role: Sendable {
        case primary, standbys

        var allowed: [TargetSessionAttributes] {
            switch self {
            case .primary: [.any, .readWrite, .primary]
            case .standbys: [.any, .readOnly, .standby, .preferStandby]
            }
        }
    }

    /// One host and port of the URL.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The hosts, in the URL's order (the order they are tried in); one for a Unix socket.
    public var endpoints: [Endpoint]
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
    public var targetSessionAttributes: TargetSessionAttributes

    /// The first host, the only one of a URL that names one.
    public var host: String { endpoints[0].host }
    public var port: Int { endpoints[0].port }
    /// True when the URL names more than one host, so that what it is for may move between them.
    public var movesBetweenHosts: Bool { endpoints.count > 1 }

    /// True for text that names a PostgreSQL database rather than a SQLite file.
    public static func isAddress(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads the URL, or says what is wrong with it (without repeating the password).
    public init(_ text: String, role: Role = .primary) throws(PostgresAddressError) {
        guard Self.isAddress(text), let split = HostList(url: text), let components = URLComponents(string: split.withOneHost) else {
            throw PostgresAddressError("must look like postgres://user:password@host:5432/database")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name.lowercased(), $0.value ?? "") }, uniquingKeysWith: { $1 })
        let known: Set = ["sslmode", "sslrootcert", "host", "schema", "application_name", "target_session_attrs"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw PostgresAddressError("has an unknown parameter \(unknown) (known: \(known.sorted().joined(separator: ", ")))")
        }
        guard let user = components.user, !user.isEmpty else { throw PostgresAddressError("needs a user name: postgres://user@host/database") }
        let name = String(components.path.drop { $0 == "/" })
        guard !name.isEmpty, !name.contains("/") else { throw PostgresAddressError("needs a database name after the host: postgres://user@host/database") }
        username = user
        password = components.password
        database = name
        socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        endpoints = try split.endpoints()
        if socketDirectory != nil, endpoints.count > 1 {
            throw PostgresAddressError("names several hosts and a socket directory (host=…); a Unix socket is one server")
        }
        if endpoints.isEmpty {
            guard socketDirectory != nil else {
                throw PostgresAddressError("needs a host: postgres://user@host/database, or ?host=/run/postgresql for a local socket")
            }
            endpoints = [Endpoint(host: "localhost", port: components.port ?? 5432)]
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
        let attributes = query["target_session_attrs"] ?? "any"
        guard let target = TargetSessionAttributes(rawValue: attributes), role.allowed.contains(target) else {
            throw PostgresAddressError(role == .primary
                ? "has target_session_attrs=\(attributes); the database URL is where writes go, so it takes \(role.allowed.map(\.rawValue).joined(separator: ", ")) (name standbys for reads with --database-replicas)"
                : "has target_session_attrs=\(attributes); a URL of standbys for reads takes \(role.allowed.map(\.rawValue).joined(separator: ", "))")
        }
        targetSessionAttributes = target
    }

    /// The same database on `endpoint` alone.
    func only(_ endpoint: Endpoint) -> PostgresAddress {
        var address = self
        address.endpoints = [endpoint]
        return address
    }

    /// The URL with the password hidden, for logs and error messages.
    public var description: String {
        let credentials = password == nil ? username : "\(username):***"
        let parameters = [socketDirectory.map { "host=\($0)" }, schema.map { "schema=\($0)" },
                          targetSessionAttributes == .any ? nil : "target_session_attrs=\(targetSessionAttributes.rawValue)"].compactMap { $0 }
        let hosts = socketDirectory == nil ? endpoints.map(\.description).joined(separator: ",") : ""
        return "postgres://\(credentials)@\(hosts)/\(database)" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
    }
}

/// A URL's authority cut into its user part and its hosts, since `URLComponents` reads one host
/// only: libpq's `host1:port1,host2:port2` is taken apart here, and the rest of the URL is read by
/// `URLComponents` with the hosts left out.
private struct HostList {
    let withOneHost: String
    private let hosts: [Substring]

    init?(url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let at = authority.lastIndex(of: "@")
        let userPart = at.map { authority[...$0] } ?? ""
        let hostPart = at.map { authority[authority.index(after: $0)...] } ?? authority
        hosts = hostPart.isEmpty ? [] : hostPart.split(separator: ",", omittingEmptySubsequences: false)
        let port = hosts.count == 1 ? (try? Self.endpoint(hosts[0]))?.port : nil
        withOneHost = url[..<schemeEnd.upperBound] + userPart + (port.map { "localhost:\($0)" } ?? "localhost") + rest[authorityEnd...]
    }

    func endpoints() throws(PostgresAddressError) -> [PostgresAddress.Endpoint] {
        var endpoints: [PostgresAddress.Endpoint] = []
        for host in hosts { endpoints.append(try Self.endpoint(host)) }
        // `postgres://user@:5432/db`: a port and no host, as a socket URL may be written.
        if endpoints.count == 1, endpoints[0].host.isEmpty { return [] }
        guard !endpoints.contains(where: \.host.isEmpty) else { throw PostgresAddressError("has an empty host in its host list") }
        return endpoints
    }

    /// `host`, `host:port` or `[v6 address]:port`.
    private static func endpoint(_ text: Substring) throws(PostgresAddressError) -> PostgresAddress.Endpoint {
        var host = text
        var port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw PostgresAddressError("has a host \(text) with no closing ]") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw PostgresAddressError("has a host \(text) that is not [address]:port") }
            port = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let port else { return .init(host: String(host), port: 5432) }
        guard let number = Int(port), (1...65535).contains(number) else { throw PostgresAddressError("has a host \(text) whose port is not a number from 1 to 65535") }
        return .init(host: String(host), port: number)
    }
}

/// A database URL that cannot be used, and why.
public struct PostgresAddressError: Error, CustomStringConvertible {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { "the PostgreSQL URL \(reason)" }
}
