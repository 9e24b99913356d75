import Foundation
import Hummingbird
import HummingbirdTesting
@testable import OnTheMapServer
import Testing

/// `GET /v1/geocode` (docs/API.md, "Native endpoints", and its bad input).
@Suite struct GeocodeEndpointTests {
    @Test func answersBestFirstWithTheContractFields() async throws {
        try await TestServer.run(geocoder: TestServer.loadedGeocoder) { server in
            let response = try await server.send(.get, "/v1/geocode?q=Paris%2C%20TX&limit=3")
            #expect(response.status == .ok)
            let body = try JSONDecoder().decode(GeocodeAnswer.self, from: response.data)
            #expect(body.results.first?.name == "Paris, Texas, United States")
            #expect(body.results.first?.countryCode == "US")
            #expect(body.results.first?.accuracy == "city")
            #expect(body.results.count <= 3)
            let keys = try #require((try response.object()["results"] as? [[String: Any]])?.first?.keys)
            #expect(Set(keys) == ["name", "latitude", "longitude", "countryCode", "accuracy"])
        }
    }

    /// A region answers with the box that frames it; an address says it was one and
    /// names the town it lies in, for a student who shares only the town.
    @Test func regionsCarryABoxAndAddressesTheirTown() async throws {
        try await TestServer.run(geocoder: TestServer.loadedGeocoder) { server in
            let region = try await server.send(.get, "/v1/geocode?q=Ontario&limit=1").object()
            #expect(region["input"] as? String == "place")
            let ontario = try #require((region["results"] as? [[String: Any]])?.first)
            let bbox = try #require(ontario["bbox"] as? [Double])
            #expect(bbox.count == 4 && bbox[0] < bbox[2] && bbox[1] < bbox[3])
            #expect(ontario["town"] == nil)

            let address = try await server.send(.get, "/v1/geocode?q=1600%20Amphitheatre%20Pkwy%2C%20Mountain%20View%2C%20CA%2094043&limit=1").object()
            #expect(address["input"] as? String == "street")
            let best = try #require((address["results"] as? [[String: Any]])?.first)
            #expect(best["accuracy"] as? String == "postcode")
            let town = try #require(best["town"] as? [String: Any])
            #expect(town["name"] as? String == "Mountain View, California, United States")

            let postcode = try await server.send(.get, "/v1/geocode?q=75001%20Paris&limit=1").object()
            #expect(postcode["input"] as? String == "postcode")
            #expect(try await server.send(.get, "/v1/geocode?q=47.6%2C%20-122.3&limit=1").object()["input"] as? String == "coordinates")
        }
    }

    /// An answer read out of a sentence, found by forgiving a typo, or one of several
    /// namesakes says it is less sure and why; the place a student came from is a candidate.
    @Test func lessSureAnswersSayWhy() async throws {
        try await TestServer.run(geocoder: TestServer.loadedGeocoder) { server in
            func answer(_ q: String) async throws -> (confidence: String?, doubts: [String]?, names: [String]) {
                let body = try await server.send(.get, "/v1/geocode?q=\(q)").object()
                let names = (body["results"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                return (body["confidence"] as? String, body["doubts"] as? [String], names)
            }
            let sure = try await answer("Seattle%2C%20WA")
            #expect(sure.confidence == "high" && sure.doubts == [])
            let context = try await answer("near%20Toronto")
            #expect(context.confidence == "low" && context.doubts == ["context"])
            #expect(context.names.first == "Toronto, Ontario, Canada")
            let typo = try await answer("Seatle")
            #expect(typo.confidence == "low" && typo.doubts == ["typo"])
            let moved = try await answer("from%20Lima%2C%20now%20in%20Quito")
            #expect(moved.doubts == ["context", "two-places"])
            #expect(Array(moved.names.prefix(2)) == ["Quito, Pichincha, Ecuador", "Lima, Lima Province, Peru"])
            let namesakes = try await answer("Springfield")
            #expect(namesakes.doubts == ["namesakes"] && namesakes.names.count > 1)
        }
    }

    @Test func defaultLimitIsFive() async throws {
        try await TestServer.run(geocoder: TestServer.loadedGeocoder) { server in
            let body = try JSONDecoder().decode(GeocodeAnswer.self, from: try await server.send(.get, "/v1/geocode?q=Springfield").data)
            #expect(body.results.count == 5)
        }
    }

    @Test(arguments: ["asdf", "my%20house", "test2", "%E2%80%8B"])
    func noMatchIsAnEmptyList(q: String) async throws {
        try await TestServer.run(geocoder: TestServer.loadedGeocoder) { server in
            let response = try await server.send(.get, "/v1/geocode?q=\(q)")
            #expect(response.status == .ok)
            #expect(response.text == #"{"confidence":"high","doubts":[],"input":"place","results":[]}"#)
        }
    }

    @Test(arguments: [
        "/v1/geocode", "/v1/geocode?q=", "/v1/geocode?q=%20%20", "/v1/geocode?q=\(String(repeating: "a", count: 201))",
        "/v1/geocode?q=%FF%FE", "/v1/geocode?q=Paris%00", "/v1/geocode?q=Paris%0A", "/v1/geocode?q=Paris&limit=0",
        "/v1/geocode?q=Paris&limit=abc", "/v1/geocode?q=Paris&limit=21",
    ])
    func badQueriesAre400(path: String) async throws {
        try await TestServer.run(geocoder: TestServer.loadedGeocoder) { server in
            let response = try await server.send(.get, path)
            #expect(response.status == .badRequest)
            #expect(try response.object()["status"] as? Int == 400)
        }
    }

    @Test func loadingGeocoderAnswers503WithRetryAfter() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.get, "/v1/geocode?q=Paris")
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "1")
        }
    }

    @Test func isRateLimitedPerClientAddress() async throws {
        try await TestServer.run(configure: { $0.geocodeRequestsPerMinute = 3 }, geocoder: TestServer.loadedGeocoder) { server in
            let address: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.5"]
            for _ in 0..<3 { #expect(try await server.send(.get, "/v1/geocode?q=Oslo", headers: address).status == .ok) }
            let limited = try await server.send(.get, "/v1/geocode?q=Oslo", headers: address)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] != nil)
            #expect(try await server.send(.get, "/v1/geocode?q=Oslo", headers: [.init("X-Forwarded-For")!: "203.0.113.6"]).status == .ok)
        }
    }

    @Test func randomUnicodeNeverFailsTheServer() async throws {
        try await TestServer.run(configure: { $0.geocodeRequestsPerMinute = 100_000 }, geocoder: TestServer.loadedGeocoder) { server in
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<500 {
                let scalars = (0..<Int.random(in: 1...30, using: &generator)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 1...0x10FFFF, using: &generator))
                }
                let q = String(String.UnicodeScalarView(scalars)).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let response = try await server.send(.get, "/v1/geocode?q=\(q)")
                #expect(response.status == .ok || response.status == .badRequest, "\(q)")
            }
        }
    }
}
