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

    @Option(help: ArgumentHelp("Address to listen on (env ONTHEMAP_HOST; default 127.0.0.1).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("Port to listen on (env ONTHEMAP_PORT; default 8080).", valueName: "port"))
    var port: String?

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var edge: EdgeOptions

    @OptionGroup var metrics: MetricsOptions

    @OptionGroup var signIn: SignInOptions

    @OptionGroup var secret: SecretOptions

    @Option(help: ArgumentHelp("Who may write locations: accounts or open (env ONTHEMAP_WRITES; default accounts).", valueName: "mode"))
    var writes: String?

    @Option(name: .customLong("public-url"), help: ArgumentHelp(
        "Origin users reach the service at, e.g. https://map.example.org: used by cross-site checks and for Secure cookies (env ONTHEMAP_PUBLIC_URL).",
        valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("trust-proxy"), help: ArgumentHelp(
        """
        Take client addresses from X-Forwarded-For when the request comes from one of these reverse proxies: their addresses \
        and CIDR ranges, comma-separated, or yes for one on this machine (127.0.0.0/8, ::1); the client is the rightmost hop \
        that is not a proxy (env ONTHEMAP_TRUST_PROXY; default no).
        """,
        valueName: "no|yes|addresses"))
    var trustProxy: String?

    @Option(name: .customLong("session-days"), help: ArgumentHelp(
        "How long a login lasts, in days (env ONTHEMAP_SESSION_DAYS; default 30).", valueName: "days"))
    var sessionDays: String?

    @Option(name: .customLong("session-idle-days"), help: ArgumentHelp(
        "How long a login lasts unused, in days; each use moves it on, within --session-days (env ONTHEMAP_SESSION_IDLE_DAYS; default 14).",
        valueName: "days"))
    var sessionIdleDays: String?

    @Option(name: .customLong("max-list-limit"), help: ArgumentHelp(
        "Largest page a list may return; larger limits are clamped (env ONTHEMAP_MAX_LIST_LIMIT; default 1000).", valueName: "count"))
    var maxListLimit: String?

    @Option(name: .customLong("max-skip"), help: ArgumentHelp(
        "Largest skip a list accepts; deeper pages answer 400 (env ONTHEMAP_MAX_SKIP; default 10000).", valueName: "count"))
    var maxSkip: String?

    @Option(name: .customLong("expensive-queries"), help: ArgumentHelp(
        "List queries that may scan the table (see docs/API.md) running at once; keep it below --database-readers (env ONTHEMAP_EXPENSIVE_QUERIES; default 2).",
        valueName: "count"))
    var expensiveQueries: String?

    @Option(name: .customLong("expensive-queue"), help: ArgumentHelp(
        "Expensive list queries that may wait for a place; more are answered 503 (env ONTHEMAP_EXPENSIVE_QUEUE; default 16).",
        valueName: "count"))
    var expensiveQueue: String?

    @Option(name: .customLong("signup-limit"), help: ArgumentHelp(
        "Sign-ups allowed per client address in 10 minutes; a class behind one NAT shares an address (env ONTHEMAP_SIGNUP_LIMIT; default 100).",
        valueName: "count"))
    var signUpLimit: String?

    @Option(name: .customLong("login-failure-limit"), help: ArgumentHelp(
        "Failed logins allowed per client address per minute, over any emails (env ONTHEMAP_LOGIN_FAILURE_LIMIT; default 30).",
        valueName: "count"))
    var loginFailureLimit: String?

    @Option(name: .customLong("live-streams"), help: ArgumentHelp(
        "Live map streams (GET /v1/StudentLocation/events) open at once on this instance; more are answered 503 (env ONTHEMAP_LIVE_STREAMS; default 10000).",
        valueName: "count"))
    var liveStreams: String?

    @Option(name: .customLong("live-streams-per-address"), help: ArgumentHelp(
        "Live map streams one client address may hold; more are answered 429 (env ONTHEMAP_LIVE_STREAMS_PER_ADDRESS; default 100).",
        valueName: "count"))
    var liveStreamsPerAddress: String?

    @Option(name: .customLong("geocoder-upstream"), help: ArgumentHelp(
        "A Nominatim-compatible search endpoint (…/search) asked first for street addresses; the offline geocoder answers when it fails or is slow (env ONTHEMAP_GEOCODER_UPSTREAM; default none).",
        valueName: "url"))
    var geocoderUpstream: String?

    @Option(name: .customLong("leaflet-dir"), help: ArgumentHelp(
        "Directory holding leaflet.js and leaflet.markercluster.js for the web client (env ONTHEMAP_LEAFLET_DIR; default Debian's \(WebClientSettings.debianLeafletDirectory)).",
        valueName: "path"))
    var leafletDirectory: String?

    @Option(name: .customLong("tiles-url"), help: ArgumentHelp(
        "Online map tiles for the web client, e.g. https://tile.example.org/{z}/{x}/{y}.png; needs --tiles-attribution (env ONTHEMAP_TILES_URL; default none: the offline basemap only).",
        valueName: "template"))
    var tilesURL: String?

    @Option(name: .customLong("tiles-attribution"), help: ArgumentHelp(
        "Credit line the tile provider requires, shown on the map (env ONTHEMAP_TILES_ATTRIBUTION).", valueName: "text"))
    var tilesAttribution: String?

    @Option(name: .customLong("log-format"), help: ArgumentHelp(
        "text, or json for one JSON object per line (env ONTHEMAP_LOG_FORMAT; default text).", valueName: "format"))
    var logFormat: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp(
        "trace, debug, info, notice, warning, error or critical (env ONTHEMAP_LOG_LEVEL; default info).", valueName: "level"))
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
        settings.leafletDirectory = try Setting(flag: "--leaflet-dir", variable: "ONTHEMAP_LEAFLET_DIR")
            .value(leafletDirectory, default: settings.leafletDirectory, expected: "a directory path") { $0.isEmpty ? nil : $0 }
        let url = Setting(flag: "--tiles-url", variable: "ONTHEMAP_TILES_URL").raw(tilesURL)
        let attribution = Setting(flag: "--tiles-attribution", variable: "ONTHEMAP_TILES_ATTRIBUTION").raw(tilesAttribution)
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
        try Setting(flag: "--log-format", variable: "ONTHEMAP_LOG_FORMAT")
            .value(logFormat, default: "text", expected: "text or json") { ["text", "json"].contains($0.lowercased()) ? $0.lowercased() : nil }
    }

    private func logLevelSetting() throws -> Logger.Level {
        try Setting(flag: "--log-level", variable: "ONTHEMAP_LOG_LEVEL")
            .value(logLevel, default: .info, expected: "a log level such as info") { Logger.Level(rawValue: $0.lowercased()) }
    }

    /// Flags first, then `ONTHEMAP_…` variables, then defaults.
    func makeConfiguration() throws -> AppConfiguration {
        var configuration = AppConfiguration()
        configuration.host = try Setting(flag: "--host", variable: "ONTHEMAP_HOST")
            .value(host, default: configuration.host, expected: "an address") { $0.isEmpty ? nil : $0 }
        configuration.port = try Setting(flag: "--port", variable: "ONTHEMAP_PORT")
            .value(port, default: configuration.port, expected: "a port number from 0 to 65535") { Int($0).flatMap { (0...65535).contains($0) ? $0 : nil } }
        configuration.writeMode = try Setting(flag: "--writes", variable: "ONTHEMAP_WRITES")
            .value(writes, default: configuration.writeMode, expected: "accounts or open") { WriteMode(rawValue: $0.lowercased()) }
        if let (text, source) = Setting(flag: "--public-url", variable: "ONTHEMAP_PUBLIC_URL").raw(publicURL) {
            guard let origin = PublicURL(text) else {
                throw ValidationError("\(source) must be an origin such as https://map.example.org; got \"\(text)\".")
            }
            configuration.publicURL = origin
        }
        configuration.edge = try edge.limits()
        configuration.trustedProxies = try Setting(flag: "--trust-proxy", variable: "ONTHEMAP_TRUST_PROXY")
            .value(trustProxy, default: TrustedProxies.nobody, expected: "no, yes (a proxy on this machine) or the proxies' addresses and CIDR ranges, comma-separated") {
                switch $0.lowercased() {
                case "no", "false", "0": TrustedProxies.nobody
                case "yes", "true", "1": TrustedProxies.loopback
                default: TrustedProxies(list: $0)
                }
            }
        configuration.sessionLifetimeSeconds = try Setting(flag: "--session-days", variable: "ONTHEMAP_SESSION_DAYS")
            .value(sessionDays, default: configuration.sessionLifetimeSeconds, expected: "a whole number of days from 1 to 3650") {
                Int64($0).flatMap { (1...3650).contains($0) ? $0 * 86_400 : nil }
            }
        configuration.sessionIdleSeconds = try Setting(flag: "--session-idle-days", variable: "ONTHEMAP_SESSION_IDLE_DAYS")
            .value(sessionIdleDays, default: configuration.sessionIdleSeconds, expected: "a whole number of days from 1 to 3650") {
                Int64($0).flatMap { (1...3650).contains($0) ? $0 * 86_400 : nil }
            }
        configuration.maxListLimit = try Setting(flag: "--max-list-limit", variable: "ONTHEMAP_MAX_LIST_LIMIT")
            .value(maxListLimit, default: configuration.maxListLimit, expected: "a whole number from 1 to 100000") {
                Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil }
            }
        configuration.maxSkip = try Setting(flag: "--max-skip", variable: "ONTHEMAP_MAX_SKIP")
            .value(maxSkip, default: configuration.maxSkip, expected: "a whole number from 0 to 1000000") {
                Int($0).flatMap { (0...1_000_000).contains($0) ? $0 : nil }
            }
        configuration.expensiveReadConcurrency = try Setting(flag: "--expensive-queries", variable: "ONTHEMAP_EXPENSIVE_QUERIES")
            .value(expensiveQueries, default: configuration.expensiveReadConcurrency, expected: "a whole number from 1 to 64") {
                Int($0).flatMap { (1...64).contains($0) ? $0 : nil }
            }
        configuration.expensiveReadQueue = try Setting(flag: "--expensive-queue", variable: "ONTHEMAP_EXPENSIVE_QUEUE")
            .value(expensiveQueue, default: configuration.expensiveReadQueue, expected: "a whole number from 0 to 100000") {
                Int($0).flatMap { (0...100_000).contains($0) ? $0 : nil }
            }
        configuration.signUpsPerAddressPer10Minutes = try Setting(flag: "--signup-limit", variable: "ONTHEMAP_SIGNUP_LIMIT")
            .value(signUpLimit, default: configuration.signUpsPerAddressPer10Minutes, expected: "a whole number from 1 to 100000") {
                Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil }
            }
        configuration.loginFailuresPerAddressPerMinute = try Setting(flag: "--login-failure-limit", variable: "ONTHEMAP_LOGIN_FAILURE_LIMIT")
            .value(loginFailureLimit, default: configuration.loginFailuresPerAddressPerMinute, expected: "a whole number from 1 to 100000") {
                Int($0).flatMap { (1...100_000).contains($0) ? $0 : nil }
            }
        configuration.live.maxStreams = try Setting(flag: "--live-streams", variable: "ONTHEMAP_LIVE_STREAMS")
            .value(liveStreams, default: configuration.live.maxStreams, expected: "a whole number from 0 to 1000000") {
                Int($0).flatMap { (0...1_000_000).contains($0) ? $0 : nil }
            }
        configuration.live.maxStreamsPerAddress = try Setting(flag: "--live-streams-per-address", variable: "ONTHEMAP_LIVE_STREAMS_PER_ADDRESS")
            .value(liveStreamsPerAddress, default: configuration.live.maxStreamsPerAddress, expected: "a whole number from 1 to 1000000") {
                Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
            }
        let upstream = try Setting(flag: "--geocoder-upstream", variable: "ONTHEMAP_GEOCODER_UPSTREAM")
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
