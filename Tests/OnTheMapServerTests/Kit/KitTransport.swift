import AsyncHTTPClient
import Foundation
import OnTheMapKit
import OnTheMapKitAsyncHTTPClient
@testable import OnTheMapServer
import Testing

/// OnTheMapKit's suites, one test case at a time: each runs real servers and HTTP clients, and the
/// package's tests beside the rest of the Swift suites already fill two cores (run all at once,
/// their servers answered other suites' live clients only after those clients' 20 s timeout).
@Suite(.serialized) enum KitSuite {
    /// A live server (a real socket) on a fresh database of the engine under test, and its port.
    static func live(_ configure: @escaping (inout AppConfiguration) -> Void = { _ in }, geocoder: GeocoderState = GeocoderState(.loading),
                     _ body: @Sendable (TestServer, Int) async throws -> Void) async throws {
        try await TestServer.run(configure: configure, geocoder: geocoder, live: true) { server in
            try await body(server, try #require(server.client.port))
        }
    }
}

/// The two transports OnTheMapKit ships with; every kit test runs through both.
enum KitTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession, asyncHTTPClient

    var testDescription: String { rawValue }

    /// A client of the server at `port`, whose base URL's path is `path` (a course's, `/c/cs101/`).
    func client(
        port: Int, path: String = "", sessionStore: any SessionStore = InMemorySessionStore(), timeout: Duration = .seconds(30)
    ) -> OnTheMapClient {
        let url = baseURL(port, path)
        switch self {
        case .urlSession: return OnTheMapClient(baseURL: url, sessionStore: sessionStore)
        case .asyncHTTPClient: return OnTheMapClient(baseURL: url, timeout: timeout, sessionStore: sessionStore)
        }
    }

    func legacy(port: Int, path: String = "", family: LegacyClient.Family, sessionPaths: LegacyClient.SessionPaths = .v1) -> LegacyClient {
        switch self {
        case .urlSession: return LegacyClient(baseURL: baseURL(port, path), family: family, sessionPaths: sessionPaths)
        case .asyncHTTPClient:
            return LegacyClient(baseURL: baseURL(port, path), family: family, sessionPaths: sessionPaths, httpClient: .onTheMapDefault)
        }
    }

    private func baseURL(_ port: Int, _ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }
}

/// The error a call threw, or nil when it did not throw. Anything but an `OnTheMapError` is a
/// failure of the test: the façade promises to throw nothing else.
func kindThrown<T>(_ work: () async throws -> T) async -> OnTheMapError? {
    do {
        _ = try await work()
        return nil
    } catch let error as OnTheMapError {
        return error
    } catch {
        Issue.record("threw \(type(of: error)), not an OnTheMapError: \(error)")
        return nil
    }
}

/// A fresh email for a sign-up.
func freshEmail() -> String { "kit\(UUID().uuidString.prefix(8).lowercased())@example.com" }
