import Foundation
@testable import OnTheMapServer
import Testing

/// The default list answered by the edge from the cache (`CachedListFastPath`): byte for byte the
/// router's answer, never out of order on a connection, never stale after a change.
@Suite struct CachedListFastPathTests {
    /// Sends `request` on a new connection that closes after the answer; returns all the bytes.
    static func exchange(_ port: Int, _ request: String) async throws -> [UInt8] {
        try await RawConnection.exchange(port: port, Array(request.utf8))
    }

    /// The bytes with the `Date` header's value blanked: it is the only part that may differ.
    static func withoutDate(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.range(of: "\r\nDate: [^\r]*", options: .regularExpression) else { return bytes }
        return Array(text.replacingCharacters(in: line, with: "\r\nDate: -").utf8)
    }

    static func answeredByEdge(_ server: TestServer) throws -> Int {
        try #require(server.edge.cachedList).answered.value
    }

    @Test func theEdgesAnswerIsTheRoutersByteForByte() async throws {
        try await TestServer.run(live: true) { server in
            let port = try #require(server.client.port)
            let session = try await server.signUp()
            try await server.postLocation(as: session, mapString: "Reykjavík, Iceland")
            let plain = try EdgeTests.RawAnswer(try await Self.exchange(port, "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
            let gzip = try EdgeTests.RawAnswer(try await Self.exchange(
                port, "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n"))
            let plainTag = try #require(plain.headers["etag"])
            let gzipTag = try #require(gzip.headers["etag"])
            #expect(plainTag != gzipTag)
            let variants = [
                "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br, gzip;q=0.8\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"other\", \(plainTag)\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: \(gzipTag)\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation?limit=100&order=-updatedAt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /parse/classes/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /1/classes/StudentLocation?order=-updatedAt HTTP/1.0\r\nConnection: close\r\n\r\n",
            ]
            for request in variants {
                // A change empties the cache: the router answers (and fills it), then the edge does.
                try #require(server.edge.cachedList).cache.invalidate(.default)
                let before = try Self.answeredByEdge(server)
                let fromRouter = try await Self.exchange(port, request)
                #expect(try Self.answeredByEdge(server) == before, "the router answers while the cache is empty")
                let fromEdge = try await Self.exchange(port, request)
                #expect(try Self.answeredByEdge(server) == before + 1, "the edge answers from the cache: \(request)")
                #expect(Self.withoutDate(fromEdge) == Self.withoutDate(fromRouter), "\(request)")
                #expect(fromEdge.starts(with: Array("HTTP/1.1 200".utf8)) || fromEdge.starts(with: Array("HTTP/1.1 304".utf8))
                        || fromEdge.starts(with: Array("HTTP/1.0 200".utf8)))
            }
        }
    }

    @Test func otherRequestsGoToTheRouter() async throws {
        try await TestServer.run(live: true) { server in
            let port = try #require(server.client.port)
            _ = try await Self.exchange(port, "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let before = try Self.answeredByEdge(server)
            for request in [
                "HEAD /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation?limit=10 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation?count=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation?limit=abc HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
            ] {
                _ = try await Self.exchange(port, request)
            }
            #expect(try Self.answeredByEdge(server) == before)
        }
    }

    @Test func answersKeepTheirOrderOnOneConnection() async throws {
        try await TestServer.run(live: true) { server in
            let port = try #require(server.client.port)
            let session = try await server.signUp()
            try await server.postLocation(as: session)
            _ = try await Self.exchange(port, "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            // Pipelined: a page for the router, then the cached list. The list must come second.
            let bytes = try await Self.exchange(port, "GET /v1/StudentLocation?limit=0 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let text = String(decoding: bytes, as: UTF8.self)
            let empty = try #require(text.range(of: "{\"results\":[]}"))
            let full = try #require(text.range(of: "{\"results\":[{"))
            #expect(empty.lowerBound < full.lowerBound)
        }
    }

    @Test func aChangeIsInTheNextList() async throws {
        try await TestServer.run(live: true) { server in
            let port = try #require(server.client.port)
            let session = try await server.signUp()
            let request = "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            for place in ["Lima, Peru", "Quito, Ecuador", "Bogotá, Colombia"] {
                _ = try await Self.exchange(port, request)
                _ = try await Self.exchange(port, request)
                try await server.postLocation(as: session, mapString: place)
                let answer = try EdgeTests.RawAnswer(try await Self.exchange(port, request))
                #expect(String(decoding: answer.body, as: UTF8.self).contains(place))
            }
        }
    }
}
