import AsyncHTTPClient
import Foundation
import NIOCore
import OnTheMapKit
import OpenAPIAsyncHTTPClient

extension OnTheMapClient {
    /// A client over AsyncHTTPClient, for servers and tools built on SwiftNIO. Calls time out after
    /// `timeout`; the live feed has no overall timeout (it reconnects on its own when a connection
    /// dies). AsyncHTTPClient keeps trying to connect until the timeout, so a server that is down is
    /// reported as ``OnTheMapError/Kind/network`` only then.
    public init(
        baseURL: URL, httpClient: HTTPClient = .shared, timeout: Duration = .seconds(30),
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
        baseURL: URL, family: Family, sessionPaths: SessionPaths = .v1, httpClient: HTTPClient = .shared, timeout: Duration = .seconds(30),
        sessionStore: any SessionStore = InMemorySessionStore()
    ) {
        self.init(
            baseURL: baseURL, family: family, sessionPaths: sessionPaths,
            transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: .init(timeout))), sessionStore: sessionStore)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
