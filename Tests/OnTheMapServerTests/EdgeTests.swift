import Foundation
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// Over real sockets: answers made before routing are JSON in the path
/// family's shape with the security headers; slow clients are answered 408 and closed; the server's
/// connections are bounded in all and per address, idle ones giving way first.
@Suite struct EdgeTests {
    /// An answer read off a socket: status, headers (lowercased names) and body.
    struct RawAnswer {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]

        init(_ bytes: [UInt8]) throws {
            guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { throw TestFailure("no complete head in \(bytes.count) bytes") }
            let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            status = Int(lines[0].split(separator: " ")[1]) ?? 0
            headers = Dictionary(lines.dropFirst().map { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                return (parts[0].lowercased(), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
            }, uniquingKeysWith: { first, _ in first })
            body = Array(bytes[end.upperBound...])
        }

        func json(prefixed: Bool) throws -> [String: Any] {
            var data = Data(body)
            if prefixed {
                guard body.starts(with: UdacityPrefix.bytes) else { throw TestFailure("no prefix: \(String(decoding: body, as: UTF8.self))") }
                data = data.subdata(in: 5..<data.count)
            }
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw TestFailure("not an object") }
            return object
        }
    }

    static func exchange(_ port: Int, _ request: [UInt8]) async throws -> RawAnswer {
        try RawAnswer(try await RawConnection.exchange(port: port, request))
    }

    @Test func requestsTheParserRefusesAreAnsweredInTheirFamilysShape() async throws {
        try await TestServer.run(live: true) { server in
            let port = try #require(server.client.port)
            let longHeader = try await Self.exchange(port, Array("GET /v1/session HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n".utf8))
            #expect(longHeader.status == 431)
            #expect(try longHeader.json(prefixed: true)["status"] as? Int == 431)
            #expect(longHeader.headers["x-content-type-options"] == "nosniff" && longHeader.headers["content-security-policy"] != nil)

            let conflicting = try await Self.exchange(port, Array(
                "POST /parse/classes/StudentLocation HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8))
            #expect(conflicting.status == 400)
            let parse = try conflicting.json(prefixed: false)
            #expect(parse["code"] is Int && parse["error"] is String && parse["status"] == nil)

            let badHeader = try await Self.exchange(port, Array("DELETE /api/session HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u{1}abc\r\n\r\n".utf8))
            #expect(badHeader.status == 400)
            #expect(try badHeader.json(prefixed: true)["error"] is String)

            let unknownMethod = try await Self.exchange(port, Array("BREW /v1/StudentLocation HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(unknownMethod.status == 501)
            #expect(try unknownMethod.json(prefixed: false)["status"] as? Int == 501)
        }
    }

    @Test(arguments: ["CONNECT", "TRACE"])
    func methodsNoRouteImplementsAre405(method: String) async throws {
        try await TestServer.run { server in
            let response = try await server.send(.init(method)!, "/v1/StudentLocation")
            #expect(response.status.code == 405)
            #expect(response.headers[.allow] == "GET, HEAD, POST, PUT, DELETE")
            #expect(try response.object()["status"] as? Int == 405)
            #expect(response.headers[.xContentTypeOptions] == "nosniff")
        }
    }

    @Test func aHeadThatNeverEndsGets408AndTheConnectionCloses() async throws {
        try await TestServer.run(configure: { $0.edge.headerTimeout = .milliseconds(500) }, live: true) { server in
            let connection = try RawConnection(port: try #require(server.client.port))
            try connection.send("GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            let answer = try RawAnswer(try await connection.readUntilClosed())
            #expect(answer.status == 408)
            #expect(try answer.json(prefixed: false)["status"] as? Int == 408)
        }
    }

    @Test func aBodyThatStopsHalfwayGets408AndTheConnectionCloses() async throws {
        try await TestServer.run(configure: { $0.edge.bodyTimeout = .milliseconds(500) }, live: true) { server in
            let connection = try RawConnection(port: try #require(server.client.port))
            try connection.send("POST /v1/session HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"udacity\":")
            let answer = try RawAnswer(try await connection.readUntilClosed())
            #expect(answer.status == 408)
            #expect(try answer.json(prefixed: true)["status"] as? Int == 408)
        }
    }

    @Test func aClientThatStallsAfterAnEarlyAnswerIsClosedWithoutASecondOne() async throws {
        // A body deadline far longer than the router takes to refuse, even on a busy machine: 10 s
        // was not, once, with every suite's servers sharing two cores at the start of the run.
        try await TestServer.run(configure: { $0.edge.bodyTimeout = .seconds(30) }, live: true) { server in
            let connection = try RawConnection(port: try #require(server.client.port))
            // No session: refused with 401 before the body is read, and the body never comes.
            try connection.send("POST /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"mapString\":")
            #expect(try await connection.readResponse().statusLine == "HTTP/1.1 401 Unauthorized")
            let rest = try await connection.readUntilClosed()
            #expect(rest.isEmpty, "a second answer: \(String(decoding: rest, as: UTF8.self))")
        }
    }

    @Test func anIdleConnectionIsClosedWithoutAnAnswer() async throws {
        try await TestServer.run(configure: { $0.edge.idleTimeout = .milliseconds(500) }, live: true) { server in
            let connection = try RawConnection(port: try #require(server.client.port))
            try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.readResponse().statusLine == "HTTP/1.1 200 OK")
            #expect(try await connection.readUntilClosed().isEmpty)
        }
    }

    @Test func whenFullTheLongestIdleConnectionMakesRoomAndBusyOnesAreKept() async throws {
        try await TestServer.run(configure: { $0.edge.maxConnections = 3 }, live: true) { server in
            let port = try #require(server.client.port)
            // The test client's own connection counts too: open it now, so that it is the
            // longest idle (rather than arriving at some moment of the test and changing which
            // connection is evicted), then fill what is left with idle ones.
            _ = try await server.send(.get, "/healthz")
            var idle: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try RawConnection(port: port)
                try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try await connection.readResponse()
                idle.append(connection)
            }
            let newcomer = try RawConnection(port: port)
            try newcomer.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await newcomer.readResponse().statusLine == "HTTP/1.1 200 OK")
            #expect(try await idle[0].readUntilClosed().isEmpty, "the longest-idle connection was closed")

            // Now every place is busy: connections in the middle of sending a request.
            var busy: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try RawConnection(port: port)
                try connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
                busy.append(connection)
            }
            // Busy once the server has read their first bytes: on a loaded machine that is not at once,
            // and a connection not yet seen as busy would be closed to make room.
            let deadline = ContinuousClock.now + .seconds(20)
            while server.edge.registry.busyCount < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.edge.registry.busyCount == 3)
            let refused = try RawAnswer(try await RawConnection(port: port).readUntilClosed())
            #expect(refused.status == 503)
            #expect(refused.headers["retry-after"] == "1")
            _ = busy
        }
    }

    @Test func oneAddressHoldsAtMostItsShare() async throws {
        try await TestServer.run(configure: { $0.edge.maxConnectionsPerAddress = 2 }, live: true) { server in
            let port = try #require(server.client.port)
            let first = try RawConnection(port: port), second = try RawConnection(port: port)
            try first.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            try second.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await first.readResponse()
            _ = try await second.readResponse()
            let third = try RawAnswer(try await RawConnection(port: port).readUntilClosed())
            #expect(third.status == 429)
        }
    }
}
