import AsyncHTTPClient
import Foundation
import Logging
@testable import OnTheMapServer
import OnTheMapStore
import OnTheMapTestSupport
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server that can be stopped and started again on the same port and database, as an operator's
/// restart does: built by `buildApplication` like every other, run in a ServiceGroup whose
/// graceful shutdown ends the live streams with `reconnect`.
final class RestartableServer: @unchecked Sendable {
    let port: Int
    let database: any DatabaseEngine
    private let configuration: AppConfiguration
    private var running: (group: ServiceGroup, task: Task<Void, any Error>)?

    private init(port: Int, database: any DatabaseEngine, configuration: AppConfiguration) {
        self.port = port
        self.database = database
        self.configuration = configuration
    }

    static func run(_ body: (RestartableServer) async throws -> Void) async throws {
        try await TestDatabase.withFresh { fresh in
            let database = try await fresh.open()
            var configuration = AppConfiguration()
            configuration.bcryptCost = 4
            configuration.host = "127.0.0.1"
            configuration.port = try freePort()
            configuration.live.heartbeat = .seconds(3600)
            let server = RestartableServer(port: configuration.port, database: database, configuration: configuration)
            do {
                try await body(server)
                try await server.stop()
            } catch {
                try? await server.stop()
                try? await database.close()
                throw error
            }
            try await database.close()
        }
    }

    func start() async throws {
        let built = try await buildApplication(configuration, database: database, logger: .quiet, overrides: AppServices.Overrides(geocoder: GeocoderState(.loading), precompressWebClient: false))
        var settings = ServiceGroupConfiguration(services: [built.application], logger: .quiet)
        // A connection that outlives a graceful stop must not hold the test: after 10 s the
        // server is cancelled, as a stop that comes to SIGKILL would be.
        settings.maximumGracefulShutdownDuration = .seconds(10)
        let group = ServiceGroup(configuration: settings)
        running = (group, Task { try await group.run() })
        // Ready when it answers.
        for _ in 0..<200 {
            let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/healthz")
            if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(2)), response.status == .ok { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("the server did not start on port \(port)")
    }

    func stop() async throws {
        guard let running else { return }
        self.running = nil
        await running.group.triggerGracefulShutdown()
        try await running.task.value
    }
}

/// A port nothing listens on now, for a server that must come back on the same one.
func freePort() throws -> Int {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw TestFailure("socket() failed") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    guard bound else { throw TestFailure("could not bind a port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
