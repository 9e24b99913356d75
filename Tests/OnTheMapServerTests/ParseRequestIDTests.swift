import Foundation
import HTTPTypes
@testable import OnTheMapServer
import Testing

/// The Parse paths take Parse Server's own `X-Parse-Request-Id`, so that Parse-era
/// apps get writes done once too: a request whose id came before is refused as Parse refuses it,
/// 400 with code 159 "Duplicate request", and changes nothing.
@Suite struct ParseRequestIDTests {
    static let requestID = HTTPField.Name("X-Parse-Request-Id")!

    @Test(arguments: ["/parse/classes/StudentLocation", "/1/classes/StudentLocation"])
    func aWriteSentAgainWithItsIdIsADuplicate(path: String) async throws {
        try await TestServer.run(configure: IdempotencyTests.open) { server in
            let first = try await server.send(.post, path, body: IdempotencyTests.pin, headers: [Self.requestID: "parse-1"])
            #expect(first.status == .created, "\(first.text)")
            let before = try await server.snapshot()
            let again = try await server.send(.post, path, body: IdempotencyTests.pin, headers: [Self.requestID: "parse-1"])
            #expect(again.status == .badRequest)
            let body = try again.object()
            #expect(body["code"] as? Int == 159 && body["error"] as? String == "Duplicate request" && body["status"] == nil)
            #expect(try await server.snapshot() == before)
            // Another id is another request.
            #expect(try await server.send(.post, path, body: IdempotencyTests.pin, headers: [Self.requestID: "parse-2"]).status == .created)
            #expect(try await server.snapshot().locations.count == 2)
        }
    }

    @Test func twoRequestsWithOneIdAtOnceWriteOnce() async throws {
        try await TestServer.run(configure: IdempotencyTests.open) { server in
            async let one = server.send(.post, "/parse/classes/StudentLocation", body: IdempotencyTests.pin, headers: [Self.requestID: "together"])
            async let two = server.send(.post, "/parse/classes/StudentLocation", body: IdempotencyTests.pin, headers: [Self.requestID: "together"])
            let statuses = try await [one.status.code, two.status.code].sorted()
            #expect(statuses == [201, 400])
            #expect(try await server.snapshot().locations.count == 1)
        }
    }

    /// The other families answer as before: the header means nothing there.
    @Test func theV1PathIgnoresIt() async throws {
        try await TestServer.run(configure: IdempotencyTests.open) { server in
            for _ in 0..<2 {
                let answer = try await server.send(.post, "/v1/StudentLocation", body: IdempotencyTests.pin, headers: [Self.requestID: "v1-1"])
                #expect(answer.status == .ok)
            }
            #expect(try await server.snapshot().locations.count == 2)
        }
    }

    @Test func aMalformedIdIs400() async throws {
        try await TestServer.run(configure: IdempotencyTests.open) { server in
            let answer = try await server.send(.post, "/parse/classes/StudentLocation", body: IdempotencyTests.pin, headers: [Self.requestID: "with space"])
            #expect(answer.status == .badRequest)
            #expect(try answer.object()["code"] as? Int == 107)
            #expect(try await server.snapshot().locations.isEmpty)
        }
    }
}
