import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The optional upstream, against a fake Nominatim on a loopback port: nothing
/// here touches the internet.
@Suite struct GeocoderUpstreamTests {
    static let address = "1600 Amphitheatre Pkwy, Mountain View, CA 94043"
    static let addressQuery = "/v1/geocode?q=1600%20Amphitheatre%20Pkwy%2C%20Mountain%20View%2C%20CA%2094043&limit=1"
    static let building = """
        [{"place_id":1,"lat":"37.4224","lon":"-122.0842","display_name":"Google Building 40, 1600, Amphitheatre Parkway, \
        Mountain View, Santa Clara County, California, 94043, United States","place_rank":30,"addresstype":"building",\
        "category":"building","type":"yes","address":{"country_code":"us","postcode":"94043"}}]
        """

    /// What the fake upstream was asked, and whether it may answer yet.
    actor RequestLog {
        private(set) var queries: [String] = []
        private(set) var userAgents: [String] = []
        private(set) var released = false
        func add(_ query: String, userAgent: String) {
            queries.append(query)
            userAgents.append(userAgent)
        }
        /// Lets a held answer go (see `withUpstream(holdUntilReleased:)`).
        func release() { released = true }
    }

    /// Runs a fake Nominatim answering `body` with `status`, and our server using it with `timeout`.
    /// With `holdUntilReleased`, the answer waits until the test calls `log.release()` (at most a
    /// minute). The default timeout is long: a loaded test machine must not turn an answer into a
    /// timeout.
    func withUpstream(
        body: String = building, status: HTTPResponse.Status = .ok, holdUntilReleased: Bool = false,
        timeout: Duration = .seconds(30),
        _ test: @escaping @Sendable (TestServer, RequestLog) async throws -> Void
    ) async throws {
        let log = RequestLog()
        let router = Router()
        router.get("/search") { request, _ -> Response in
            let parameters = request.uri.queryParameters
            #expect(parameters["format"] == "jsonv2")
            await log.add(parameters["q"].map(String.init) ?? "", userAgent: request.headers[.userAgent] ?? "")
            let deadline = ContinuousClock.now + .seconds(60)
            while holdUntilReleased, await !log.released, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let fake = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await fake.test(.live) { client in
            let url = "http://127.0.0.1:\(client.port!)/search"
            try await TestServer.run(configure: {
                $0.geocoderUpstream = url
                $0.geocoderUpstreamTimeout = timeout
            }, geocoder: TestServer.loadedGeocoder) { server in
                try await test(server, log)
            }
        }
    }

    func answer(_ server: TestServer, _ path: String) async throws -> GeocodeAnswer.Result? {
        try JSONDecoder().decode(GeocodeAnswer.self, from: try await server.send(.get, path).data).results.first
    }

    @Test func streetAddressIsAnsweredByTheUpstreamThenFromItsCache() async throws {
        try await withUpstream { server, log in
            let first = try #require(try await answer(server, Self.addressQuery))
            #expect(first.name.hasPrefix("Google Building 40"))
            #expect(first.accuracy == "address")
            #expect(first.countryCode == "US")
            #expect(abs(first.latitude - 37.4224) < 1e-9)
            _ = try await answer(server, Self.addressQuery)
            #expect(await log.queries == [Self.address])
            #expect(await log.userAgents.first?.contains("onthemap") == true)
        }
    }

    @Test func townsAreNeverSentUpstream() async throws {
        try await withUpstream { server, log in
            let result = try #require(try await answer(server, "/v1/geocode?q=Paris%2C%20TX"))
            #expect(result.name == "Paris, Texas, United States")
            #expect(await log.queries.isEmpty)
        }
    }

    @Test func slowUpstreamFallsBackOffline() async throws {
        // The upstream holds its street-level answer until the test has its own: an offline,
        // postcode-level answer proves the 0.4 s timeout fired. No clock is read, since wall time
        // flakes on a loaded machine.
        try await withUpstream(holdUntilReleased: true, timeout: .milliseconds(400)) { server, log in
            let result = try #require(try await answer(server, Self.addressQuery))
            await log.release()
            #expect(result.accuracy == "postcode")
            #expect(result.name == "94043 Mountain View, California, United States")
            #expect(await log.queries == [Self.address], "the upstream was asked first")
        }
    }

    @Test func failingUpstreamFallsBackOffline() async throws {
        try await withUpstream(body: #"{"error": "boom"}"#, status: .internalServerError) { server, _ in
            let result = try await answer(server, Self.addressQuery)
            #expect(result?.accuracy == "postcode")
        }
    }

    @Test func unreadableOrEmptyUpstreamFallsBackOffline() async throws {
        for body in ["not json", "[]", #"[{"lat": "north", "lon": "x", "display_name": "?"}]"#] {
            try await withUpstream(body: body) { server, _ in
                let result = try await answer(server, Self.addressQuery)
                #expect(result?.accuracy == "postcode", "\(body)")
            }
        }
    }
}
