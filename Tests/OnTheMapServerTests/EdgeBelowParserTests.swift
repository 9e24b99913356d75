import Foundation
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// What the edge answers beneath the HTTP parser is JSON in the family's shape
/// with every header the router's answers carry, and never reaches the router.
@Suite struct EdgeBelowParserTests {
    /// `CONNECT`'s answer has a body only if it is written beneath the parser, whose encoder drops
    /// the body of any answer to it.
    @Test(arguments: [
        ("/v1/session", PathFamily.udacity), ("/api/users/abc", .udacity), ("/v1/StudentLocation", .v1Locations),
        ("/parse/classes/StudentLocation", .parse), ("/1/classes/StudentLocation/abc", .parse), ("/v1/geocode", .native),
    ])
    func connectIsAJSON405InEachFamilysShape(path: String, family: PathFamily) async throws {
        try await TestServer.run(live: true) { server in
            let port = try #require(server.client.port)
            let answer = try await EdgeTests.exchange(port, Array("CONNECT \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(answer.status == 405)
            #expect(answer.headers["allow"] == "GET, HEAD, POST, PUT, DELETE")
            #expect(answer.headers["server"] == "onthemap" && answer.headers["date"] != nil)
            #expect(answer.headers["x-content-type-options"] == "nosniff")
            let body = try answer.json(prefixed: family == .udacity)
            #expect(body["error"] is String)
            #expect((body["status"] as? Int == 405) == (family != .parse))
            #expect((body["code"] != nil) == (family != .udacity))
        }
    }

    @Test func connectToAnAuthorityIsANative405() async throws {
        try await TestServer.run(live: true) { server in
            let answer = try await EdgeTests.exchange(try #require(server.client.port), Array("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n".utf8))
            #expect(answer.status == 405)
            #expect(try answer.json(prefixed: false)["status"] as? Int == 405)
        }
    }

    /// Refused as soon as the chunk's size is read (a body deadline of ten minutes would give 408
    /// otherwise), in the family's shape, and the router never sees it (no address was worked out
    /// for it) so nothing changes.
    @Test(arguments: ["FFFFFFFFFFFFFFFF", "10001", "1000000;ext=1"])
    func aFirstChunkOverTheBodyLimitIs413AtOnce(size: String) async throws {
        let rule = RequestFactsTests.CountingRule()
        try await TestServer.run(configure: { $0.edge.bodyTimeout = .seconds(600) }, live: true, addresses: rule) { server in
            let before = try await server.snapshot()
            let connection = try RawConnection(port: try #require(server.client.port))
            try connection.send("POST /parse/classes/StudentLocation HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            try connection.send(size + "\r\n")
            let answer = try EdgeTests.RawAnswer(try await connection.readUntilClosed())
            #expect(answer.status == 413)
            #expect(answer.headers["server"] == "onthemap")
            let body = try answer.json(prefixed: false)
            #expect(body["code"] is Int && body["status"] == nil)
            #expect(rule.seen.withLockedValue(\.count) == 0)
            #expect(try await server.snapshot() == before)
        }
    }

    /// A chunked body the parser cannot read (a size that is not hexadecimal, first or
    /// later) is the family's JSON 400, not an empty one, and changes nothing.
    @Test(arguments: [
        ("/v1/session", PathFamily.udacity, "zz\r\n{}\r\n0\r\n\r\n"), ("/parse/classes/StudentLocation", .parse, "zz\r\n{}\r\n0\r\n\r\n"),
        ("/v1/StudentLocation", .v1Locations, "5\r\n{\"a\":\r\nqq\r\n1}\r\n0\r\n\r\n"), ("/v1/accounts", .native, "2\r\n{}\r\n-1\r\n\r\n"),
    ])
    func aMalformedChunkedBodyIsTheFamilys400(path: String, family: PathFamily, body: String) async throws {
        try await TestServer.run(live: true) { server in
            let before = try await server.snapshot()
            let request = "POST \(path) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + body
            let answer = try await EdgeTests.exchange(try #require(server.client.port), Array(request.utf8))
            #expect(answer.status == 400)
            #expect(answer.headers["server"] == "onthemap" && answer.headers["connection"] == "close")
            let json = try answer.json(prefixed: family == .udacity)
            #expect(json["error"] is String)
            #expect((json["status"] as? Int == 400) == (family != .parse))
            #expect(try await server.snapshot() == before)
        }
    }

    /// A first chunk within the limit goes on to the router as before, whatever reads it came in.
    @Test func aSmallFirstChunkReachesTheRouter() async throws {
        try await TestServer.run(live: true) { server in
            let connection = try RawConnection(port: try #require(server.client.port))
            try connection.send("POST /v1/session HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            try connection.send("1")
            try connection.send("4;ext=1\r\n{\"udacity\": 1234567}\r\n0\r\n\r\n")
            let (statusLine, body) = try await connection.readResponse()
            #expect(statusLine == "HTTP/1.1 400 Bad Request")
            #expect(body.hasPrefix(")]}'\n"))
        }
    }
}
