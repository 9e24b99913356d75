import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import OnTheMapServer
import OnTheMapStore
import ServiceLifecycle

/// `onthemap serve`: runs the HTTP server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the On The Map API.",
        discussion: """
            Writes need a logged-in account by default (--writes accounts). --writes open lets anyone write, \
            as the original service did, rate limited per client address.
            """)

    @Option(help: ServerSetting.host.help)
    var host: String?

    @Option(help: ServerSetting.port.help)
    var port: String?

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var edge: EdgeOptions

    @OptionGroup var metrics: MetricsOptions

    @OptionGroup var signIn: SignInOptions

    @OptionGroup var secret: SecretOptions

    @Option(help: ServerSetting.writes.help)
    var writes: String?

    @Option(name: .customLong(ServerSetting.courseCreators.name), help: ServerSetting.courseCreators.help)
    var courseCreators: String?

    @Option(name: .customLong(ServerSetting.publicURL.name), help: ServerSetting.publicURL.help)
    var publicURL: String?

    @Option(name: .customLong(ServerSetting.trustProxy.name), help: ServerSetting.trustProxy.help)
    var trustProxy: String?

    @Option(name: .customLong(ServerSetting.sessionDays.name), help: ServerSetting.sessionDays.help)
    var sessionDays: String?

    @Option(name: .customLong(ServerSetting.sessionIdleDays.name), help: ServerSetting.sessionIdleDays.help)
    var sessionIdleDays: String?

    @Option(name: .customLong(ServerSetting.maxListLimit.name), help: ServerSetting.maxListLimit.help)
    var maxListLimit: String?

    @Option(name: .customLong(ServerSetting.maxSkip.name), help: ServerSetting.maxSkip.help)
    var maxSkip: String?

    @Option(name: .customLong(ServerSetting.listCacheCourses.name), help: ServerSetting.listCacheCourses.help)
    var listCacheCourses: String?

    @Option(name: .customLong(ServerSetting.expensiveQueries.name), help: ServerSetting.expensiveQueries.help)
    var expensiveQueries: String?

    @Option(name: .customLong(ServerSetting.expensiveQueue.name), help: ServerSetting.expensiveQueue.help)
    var expensiveQueue: String?

    @Option(name: .customLong(ServerSetting.signUpLimit.name), help: ServerSetting.signUpLimit.help)
    var signUpLimit: String?

    @Option(name: .customLong(ServerSetting.loginFailureLimit.name), help: ServerSetting.loginFailureLimit.help)
    var loginFailureLimit: String?

    @Option(name: .customLong(ServerSetting.liveStreams.name), help: ServerSetting.liveStreams.help)
    var liveStreams: String?

    @Option(name: .customLong(ServerSetting.liveStreamsPerAddress.name), help: ServerSetting.liveStreamsPerAddress.help)
    var liveStreamsPerAddress: String?

    @Option(name: .customLong(ServerSetting.geocoderUpstream.name), help: ServerSetting.geocoderUpstream.help)
    var geocoderUpstream: String?

    @Option(name: .customLong(ServerSetting.leafletDirectory.name), help: ServerSetting.leafletDirectory.help)
    var leafletDirectory: String?

    @Option(name: .customLong(ServerSetting.tilesURL.name), help: ServerSetting.tilesURL.help)
    var tilesURL: String?

    @Option(name: .customLong(ServerSetting.tilesAttribution.name), help: ServerSetting.tilesAttribution.help)
    var tilesAttribution: String?

    @Option(name: .customLong(ServerSetting.logFormat.name), help: ServerSetting.logFormat.help)
    var logFormat: String?

    @Option(name: .customLong(ServerSetting.logLevel.name), help: ServerSetting.logLevel.help)
    var logLevel: String?

    /// Bad flags and variables are reported before anything starts, with this command's usage.
    func validate() throws {
        let configuration = try makeConfiguration()
        try metrics.checkApart(fromServerAt: configuration.host, port: configuration.port)
        try database.validate()
        _ = try logLevelSetting()
        _ = try logFormatSetting()
    }

    func run() async throws {
        var configuration = try makeConfiguration()
        if try logFormatSetting() == "json" {
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
        var logger = Logger(label: "onthemap")
        logger.logLevel = try logLevelSetting()
        if configuration.writeMode == .open {
            logger.warning("Write mode is OPEN: anyone can create, change and delete locations without logging in.")
        }
        // Before anything records: metrics made earlier would record nowhere.
        let metricsAddress = try metrics.listenAddress()
        let exposition = metricsAddress.map { _ in PrometheusExposition() }
        exposition?.bootstrap()
        let location = try self.database.location()
        // The database first: a file in a missing folder is its error, not the secret's.
        let database = try await self.database.open(location, logger: logger)
        do {
            configuration.secret = try secret.secret(for: location)
            configuration.adoptSecret = secret.adoptSecret
            try await serve(configuration, database: database, metrics: exposition.map { ($0, metricsAddress!) }, logger: logger)
        } catch {
            try? await database.close()
            throw error
        }
        try await database.close()
    }

    /// Runs the server (and the metrics listener, when asked for) until a shutdown signal; a port
    /// that cannot be bound is a one-line error.
    private func serve(
        _ configuration: AppConfiguration, database: any DatabaseEngine,
        metrics: (exposition: PrometheusExposition, address: (host: String, port: Int))?, logger: Logger
    ) async throws {
        let app = try await buildApplication(configuration, database: database, logger: logger)
        var services: [any Service] = [app]
        if let metrics {
            services.append(metrics.exposition.application(host: metrics.address.host, port: metrics.address.port, logger: logger))
        }
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as IOError {
            // Which listener failed: the error does not say, so both are named when metrics are on.
            var addresses = "\(configuration.host):\(configuration.port)"
            if let metrics { addresses += " or \(metrics.address.host):\(metrics.address.port)" }
            let reason = error.errnoCode == EADDRINUSE ? "the port is already in use" : error.description
            throw CommandFailure("cannot listen on \(addresses): \(reason).")
        }
    }

    /// Leaflet's directory and the optional tile server, which needs both its flags.
    private func webClientSettings() throws -> WebClientSettings {
        var settings = WebClientSettings()
        settings.leafletDirectory = try ServerSetting.leafletDirectory
            .value(leafletDirectory, default: settings.leafletDirectory, expected: "a directory path") { $0.isEmpty ? nil : $0 }
        let url = ServerSetting.tilesURL.raw(tilesURL)
        let attribution = ServerSetting.tilesAttribution.raw(tilesAttribution)
        switch (url, attribution) {
        case (nil, nil):
            break
        case let ((urlText, urlSource)?, (attributionText, _)?):
            guard let tiles = TileSource(urlTemplate: urlText, attribution: attributionText) else {
                throw ValidationError("""
                    \(urlSource) must be an http(s) URL template with {z}, {x} and {y} (and at most a leading {s}. in the host), \
                    with a one-line --tiles-attribution; got "\(urlText)".
                    """)
            }
            settings.tiles = tiles
        case ((_, let source)?, nil), (nil, (_, let source)?):
            throw ValidationError("\(source) needs its partner: set both --tiles-url and --tiles-attribution (tile providers require credit).")
        }
        return settings
    }

    private func logFormatSetting() throws -> String {
        try ServerSetting.logFormat
            .value(logFormat, default: ServerSetting.defaultLogFormat, expected: "text or json") { ["text", "json"].contains($0.lowercased()) ? $0.lowercased() : nil }
    }

    private func logLevelSetting() throws -> Logger.Level {
        try ServerSetting.logLevel
            .value(logLevel, default: ServerSetting.defaultLogLevel, expected: "a log level such as info") { Logger.Level(rawValue: $0.lowercased()) }
    }

    /// Flags first, then `ONTHEMAP_…` variables, then defaults.
    func makeConfiguration() throws -> AppConfiguration {
        var configuration = AppConfiguration()
        configuration.host = try ServerSetting.host
            .value(host, default: configuration.host, expected: "an address") { $0.isEmpty ? nil : $0 }
        configuration.port = try ServerSetting.port
            .value(port, default: configuration.port, expected: "a port number from 0 to 65535") { Int($0).flatMap { (0...65535).contains($0) ? $0 : nil } }
        configuration.writeMode = try ServerSetting.writes
            .value(writes, default: configuration.writeMode, expected: "accounts or open") { WriteMode(rawValue: $0.lowercased()) }
        configuration.courseCreators = try ServerSetting.courseCreators
            .value(courseCreators, default: configuration.courseCreators, expected: "anyone or admins") { CourseCreators(rawValue: $0.lowercased()) }
        if let (text, source) = ServerSetting.publicURL.raw(publicURL) {
            guard let origin = PublicURL(text) else {
                throw ValidationError("\(source) must be an origin such as https://map.example.org; got \"\(text)\".")
            }
            configuration.publicURL = origin
        }
        configuration.edge = try edge.limits()
        configuration.trustedProxies = try ServerSetting.trustProxy
            .value(trustProxy, default: TrustedProxies.nobody, expected: "no, yes (a proxy on this machine) or the proxies' addresses and CIDR ranges, comma-separated") {
                switch $0.lowercased() {
                case "no", "false", "0": TrustedProxies.nobody
                case "yes", "true", "1": TrustedProxies.loopback
                default: TrustedProxies(list: $0)
                }
            }
        configuration.sessionLifetimeSeconds = try ServerSetting.sessionDays
            .value(sessionDays, default: configuration.sessionLifetimeSeconds, expected: "a whole number of days from 1 to 3650") {
                Int64($0).flatMap { (1...3650).contains($0) ? $0 * 86_400 : nil }
            }
        configuration.sessionIdleSeconds = try ServerSetting.sessionIdleDays
            .value(sessionIdleDays, default: configuration.sessionIdleSeconds, expected: "a whole number of days from 1 to 3650") {
                Int64($0).flatMap { (1...3650).contains($0) ? $0 * 86_400 : nil }
            }
        configuration.maxListLimit = try ServerSetting.maxListLimit
            .value(maxListLimit, default: configuration.maxListLimit, expected: "a whole number from 1 to 100000") {
                Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil }
            }
        configuration.maxSkip = try ServerSetting.maxSkip
            .value(maxSkip, default: configuration.maxSkip, expected: "a whole number from 0 to 1000000") {
                Int($0).flatMap { (0...1_000_000).contains($0) ? $0 : nil }
            }
        configuration.listCacheCourses = try ServerSetting.listCacheCourses
            .value(listCacheCourses, default: configuration.listCacheCourses, expected: "a whole number from 1 to 1000000") {
                Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
            }
        configuration.expensiveReadConcurrency = try ServerSetting.expensiveQueries
            .value(expensiveQueries, default: configuration.expensiveReadConcurrency, expected: "a whole number from 1 to 64") {
                Int($0).flatMap { (1...64).contains($0) ? $0 : nil }
            }
        configuration.expensiveReadQueue = try ServerSetting.expensiveQueue
            .value(expensiveQueue, default: configuration.expensiveReadQueue, expected: "a whole number from 0 to 100000") {
                Int($0).flatMap { (0...100_000).contains($0) ? $0 : nil }
            }
        configuration.signUpsPerAddressPer10Minutes = try ServerSetting.signUpLimit
            .value(signUpLimit, default: configuration.signUpsPerAddressPer10Minutes, expected: "a whole number from 1 to 100000") {
                Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil }
            }
        configuration.loginFailuresPerAddressPerMinute = try ServerSetting.loginFailureLimit
            .value(loginFailureLimit, default: configuration.loginFailuresPerAddressPerMinute, expected: "a whole number from 1 to 100000") {
                Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil }
            }
        configuration.standbyReads = database.readsFromStandbys
        configuration.live.maxStreams = try ServerSetting.liveStreams
            .value(liveStreams, default: configuration.live.maxStreams, expected: "a whole number from 0 to 1000000") {
                Int($0).flatMap { (0...1_000_000).contains($0) ? $0 : nil }
            }
        configuration.live.maxStreamsPerAddress = try ServerSetting.liveStreamsPerAddress
            .value(liveStreamsPerAddress, default: configuration.live.maxStreamsPerAddress, expected: "a whole number from 1 to 1000000") {
                Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
            }
        let upstream = try ServerSetting.geocoderUpstream
            .value(geocoderUpstream, default: "", expected: "an http or https URL such as https://nominatim.example.org/search") { text -> String? in
                let lowered = text.lowercased()
                guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), text.count > 8 else { return nil }
                return text
            }
        configuration.geocoderUpstream = upstream.isEmpty ? nil : upstream
        configuration.webClient = try webClientSettings()
        configuration.signInProviders = try signIn.signInProviders()
        do {
            try configuration.check()
        } catch {
            throw ValidationError(error.description)
        }
        return configuration
    }
}

/// A failure to report as one line, with exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
