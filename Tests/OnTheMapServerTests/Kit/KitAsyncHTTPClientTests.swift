import AsyncHTTPClient
import Foundation
import OnTheMapKit
import OnTheMapKitAsyncHTTPClient
import Testing

/// `httpClient:` is what picks OnTheMapKitAsyncHTTPClient's initializer (the getting-started
/// article's server example), and its calls go through the `HTTPClient` given: once that client is
/// shut down they fail, while the server still answers the URLSession client.
extension KitSuite {
@Suite struct KitAsyncHTTPClientTests {
    @Test(.timeLimit(.minutes(1))) func callsGoThroughTheHTTPClientGiven() async throws {
        try await KitSuite.live { _, port in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            let client = OnTheMapClient(baseURL: url, httpClient: httpClient)
            #expect(try await client.latest(limit: 1).isEmpty)
            try await httpClient.shutdown()
            #expect(await kindThrown { try await client.latest(limit: 1) } != nil)
            #expect(try await OnTheMapClient(baseURL: url).latest(limit: 1).isEmpty)
        }
    }
}
}
