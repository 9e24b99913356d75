import Logging
import NIOSSL
import PostgresNIO

/// How the engine connects to one host of the URL: the pools' settings and a direct connection.
extension PostgresAddress {
    /// The pool's connection settings for `endpoint`; `parameters` are sent at connection start
    /// (`statement_timeout`…).
    func clientConfiguration(for endpoint: Endpoint, parameters: [(String, String)], maxConnections: Int) throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(endpoint.port)", username: username, password: password, database: database)
        } else {
            configuration = .init(host: endpoint.host, port: endpoint.port, username: username, password: password, database: database, tls: tls())
        }
        configuration.options.additionalStartupParameters = startupParameters(parameters)
        configuration.options.maximumConnections = maxConnections
        configuration.options.minimumConnections = 0
        return configuration
    }

    /// One connection to `endpoint`, outside the pools: for asking a host what it is.
    func connect(to endpoint: Endpoint, timeout: Duration, logger: Logger) async throws -> PostgresConnection {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(endpoint.port)", username: username, password: password, database: database)
        } else {
            configuration = .init(host: endpoint.host, port: endpoint.port, username: username, password: password, database: database, tls: try connectionTLS())
        }
        configuration.options.connectTimeout = TimeAmount(timeout)
        configuration.options.additionalStartupParameters = startupParameters([])
        return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
    }

    private func startupParameters(_ parameters: [(String, String)]) -> [(String, String)] {
        var startup = parameters + [("application_name", "onthemap")]
        if let schema { startup.append(("search_path", schema)) }
        return startup
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
