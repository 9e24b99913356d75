import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
@testable import OnTheMapServer
import Testing

/// JSON answers are gzipped for clients that accept it, and decompress to exactly
/// the bytes a client without gzip gets.
@Suite struct CompressionTests {
    let gzip: HTTPFields = [.acceptEncoding: "gzip, deflate, br"]

    /// Enough pins that the list is well over the 1 KiB threshold.
    func seed(_ server: TestServer) async throws {
        for index in 0..<12 {
            let student = try await server.signUp(email: "student\(index)@example.com")
            try await server.postLocation(as: student, mapString: "Place number \(index), Somewhere", mediaURL: "https://example.com/\(index)")
        }
    }

    @Test func theCachedListIsSentGzippedWithItsOwnETag() async throws {
        try await TestServer.run { server in
            try await seed(server)
            let plain = try await server.send(.get, "/v1/StudentLocation")
            let zipped = try await server.send(.get, "/v1/StudentLocation", headers: gzip)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(zipped.headers[.contentEncoding] == "gzip")
            #expect(plain.headers[.vary] == "Accept-Encoding" && zipped.headers[.vary] == "Accept-Encoding")
            #expect(try decompressed(zipped) == plain.body)
            #expect(zipped.body.readableBytes * 3 < plain.body.readableBytes)
            let zippedTag = try #require(zipped.headers[.eTag])
            #expect(zippedTag != plain.headers[.eTag])
            let revalidated = try await server.send(.get, "/v1/StudentLocation", headers: gzip + [.ifNoneMatch: zippedTag])
            #expect(revalidated.status == .notModified)
            // The identity copy's tag does not validate the gzip copy, nor the other way round.
            #expect(try await server.send(.get, "/v1/StudentLocation", headers: [.ifNoneMatch: zippedTag]).status == .ok)
        }
    }

    @Test(arguments: ["/v1/StudentLocation?limit=50&order=lastName", "/parse/classes/StudentLocation?order=-createdAt&count=1",
                      "/1/classes/StudentLocation?where=%7B%22mapString%22%3A%7B%22%24ne%22%3A%22x%22%7D%7D"])
    func otherListsAreGzippedOnTheWayOut(path: String) async throws {
        try await TestServer.run { server in
            try await seed(server)
            let plain = try await server.send(.get, path)
            let zipped = try await server.send(.get, path, headers: gzip)
            #expect(plain.status == .ok && zipped.status == .ok)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.headers[.contentLength] == String(zipped.body.readableBytes))
            #expect(try decompressed(zipped) == plain.body)
            let refused = try await server.send(.get, path, headers: [.acceptEncoding: "gzip;q=0, identity"])
            #expect(refused.headers[.contentEncoding] == nil && refused.body == plain.body)
        }
    }

    @Test func smallAnswersAreSentAsTheyAre() async throws {
        try await TestServer.run { server in
            let small = try await server.send(.get, "/v1/StudentLocation?limit=1", headers: gzip)
            #expect(small.headers[.contentEncoding] == nil)
            let error = try await server.send(.get, "/v1/StudentLocation?limit=abc", headers: gzip)
            #expect(error.status == .badRequest && error.headers[.contentEncoding] == nil)
        }
    }

    private func decompressed(_ response: TestResponse) throws -> ByteBuffer {
        var body = response.body
        return try body.decompress(with: .gzip())
    }
}
