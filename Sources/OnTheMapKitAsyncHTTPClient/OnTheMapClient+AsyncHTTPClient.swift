// This package's AsyncHTTPClient trait brings AsyncHTTPClient in (its Server trait, the default,
// includes it): an app that adds the package with `traits: []` and takes this module meets this
// error rather than a missing module.
#if !AsyncHTTPClient
#error("OnTheMapKitAsyncHTTPClient needs the package's AsyncHTTPClient trait: add it with traits: [\"AsyncHTTPClient\"]")
#endif
import AsyncHTTPClient
import Foundation
import NIOCore
import OnTheMapKit
import OpenAPIAsyncHTTPClient

extension OnTheMapClient {
    /// A client over AsyncHTTPClient, for servers and tools built on SwiftNIO. Calls time out after
    /// `timeout`; the live feed has no overall timeout (it reconnects on its own when a connection
    /// dies). The default `httpClient` reports a server it cannot connect to at once, as
    /// ``OnTheMapError/Kind/network`` (after the one retry every call gets); a client of your own
    /// with AsyncHTTPClient's defaults keeps trying to connect until `timeout`.
    public init(
        baseURL: URL, httpClient: HTTPClient = .onTheMapDefault, timeout: Duration = .seconds(30),
        sessionStore: any SessionStore = InMemorySessionStore()
    ) {
        self.init(
            baseURL: baseURL,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: .init(timeout))),
            eventStreamTransport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: .hours(24 * 365))),
            sessionStore: sessionStore)
    }
}

extension LegacyClient {
    /// A legacy client over AsyncHTTPClient.
    public init(
        baseURL: URL, family: Family, sessionPaths: SessionPaths = .v1, httpClient: HTTPClient = .onTheMapDefault,
        timeout: Duration = .seconds(30),
        sessionStore: any SessionStore = InMemorySessionStore()
    ) {
        self.init(
            baseURL: baseURL, family: family, sessionPaths: sessionPaths,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: .init(timeout))), sessionStore: sessionStore)
    }
}

extension HTTPClient {
    /// The clients' default: AsyncHTTPClient's shared configuration (redirects, decompression),
    /// except that a connection refused is reported at once rather than tried again until the
    /// call's timeout, so that "the server is down" reaches an app in a moment, not 30 seconds.
    /// It lives as long as the process, like `HTTPClient.shared`.
    public static let onTheMapDefault: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
