import HTTPTypes
@testable import OnTheMapServer
import Testing

/// One `If-None-Match` rule (RFC 9110 section 13.1.2) for the cached list and the
/// web client's files, where the two disagreed on `*`.
@Suite struct RepresentationTests {
    @Test(arguments: [
        (#""abc""#, true), (#"W/"abc""#, true), ("*", true), (#""x", "abc""#, true), (#" "x" ,W/"abc" "#, true),
        (#""abcd""#, false), (#""ab""#, false), ("abc", false), ("", false),
    ])
    func ifNoneMatch(header: String, matches: Bool) {
        #expect(Representation.ifNoneMatch(header, matches: #""abc""#) == matches)
    }

    @Test func theListAndTheWebClientAnswerTheSameConditionalRequestsWith304() async throws {
        try await TestServer.run { server in
            try await server.postLocation(as: try await server.signUp())
            for path in ["/v1/StudentLocation", "/parse/classes/StudentLocation", "/", "/app.css"] {
                let first = try await server.send(.get, path)
                let tag = try #require(first.headers[.eTag])
                for header in ["*", tag, "W/" + tag, #""other", "# + tag] {
                    let again = try await server.send(.get, path, headers: [.ifNoneMatch: header])
                    #expect(again.status == .notModified, "\(path) with If-None-Match: \(header)")
                }
                #expect(try await server.send(.get, path, headers: [.ifNoneMatch: #""other""#]).status == .ok)
            }
        }
    }
}
