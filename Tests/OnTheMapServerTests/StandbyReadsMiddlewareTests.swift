import Hummingbird
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
@testable import OnTheMapStore
import Testing

/// Read-your-writes with standby reads (README.md, "More than one database machine"): each request
/// runs knowing when its caller last wrote, from this instance's memory of the sessions that wrote
/// through it and from the `otm_wrote` cookie a write sets for the other instances. The failover
/// test (scripts/test/failover/replica_test.py) holds the whole road to real standbys.
@Suite struct StandbyReadsMiddlewareTests {
    static let now: Int64 = 1_800_000_000_000

    /// A router with the middleware alone: `/seen` answers the time the request ran knowing.
    static func app(writers: RecentWriters, clock: WallClock = WallClock { now * 1000 }, secure: Bool = true) -> some ApplicationProtocol {
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: StandbyReadsMiddleware(writers: writers, clock: clock, secure: secure))
        router.get("/seen") { _, _ in StandbyReads.writtenAt.map(String.init) ?? "none" }
        router.post("/write") { _, _ in "written" }
        router.post("/refused") { _, _ -> String in throw HTTPError(.badRequest) }
        return Application(router: router)
    }

    @Test func aWriteSetsTheCookieAndNothingElseDoes() async throws {
        try await Self.app(writers: RecentWriters()).test(.router) { client in
            let written = try await client.execute(uri: "/write", method: .post)
            #expect(written.headers[values: .setCookie] == ["otm_wrote=\(Self.now); Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure"])
            #expect(try await client.execute(uri: "/seen", method: .get).headers[values: .setCookie].isEmpty)
            let refused = try await client.execute(uri: "/refused", method: .post)
            #expect(refused.status == .badRequest)
            #expect(refused.headers[values: .setCookie].isEmpty, "a refused request wrote nothing")
        }
        try await Self.app(writers: RecentWriters(), secure: false).test(.router) { client in
            let written = try await client.execute(uri: "/write", method: .post)
            #expect(written.headers[.setCookie] == "otm_wrote=\(Self.now); Path=/; Max-Age=60; HttpOnly; SameSite=Lax")
        }
    }

    @Test func aReadKnowsTheLaterOfTheCookieAndTheSessionsOwnWrite() async throws {
        let writers = RecentWriters()
        try await Self.app(writers: writers).test(.router) { client in
            let seen = { (headers: HTTPFields) in String(buffer: try await client.execute(uri: "/seen", method: .get, headers: headers).body) }
            #expect(try await seen([:]) == "none")
            #expect(try await seen([.cookie: "otm_wrote=\(Self.now - 5000)"]) == "\(Self.now - 5000)")
            // A time from the future would only send the reader's reads to the primary: ignored.
            #expect(try await seen([.cookie: "otm_wrote=\(Self.now + 5000)"]) == "none")
            #expect(try await seen([.cookie: "otm_wrote=soon"]) == "none")

            // A session that wrote through this instance is known without its cookie.
            _ = try await client.execute(uri: "/write", method: .post, headers: [.authorization: "Bearer token-a"])
            #expect(try await seen([.authorization: "Bearer token-a"]) == "\(Self.now)")
            #expect(try await seen([.authorization: "Bearer token-a", .cookie: "otm_wrote=\(Self.now - 5000)"]) == "\(Self.now)")
            #expect(try await seen([.authorization: "Bearer token-b"]) == "none")
        }
    }

    @Test func theMemoryOfWritersIsPrunedAtMostOnceASecond() {
        let writers = RecentWriters(pruneAbove: 2)
        let minute = StandbyReadsMiddleware.memorySeconds * 1000
        writers.wrote("a", at: 0)
        writers.wrote("b", at: 10)
        writers.wrote("c", at: minute + 5)
        #expect(writers.count == 2, "a was older than the memory")
        #expect(writers.lastWrite(by: "a") == nil && writers.lastWrite(by: "b") == 10)
        writers.wrote("d", at: minute + 500)
        #expect(writers.count == 3, "pruned a moment ago: not again yet")
        writers.wrote("e", at: minute + 1500)
        #expect(writers.count == 3, "b went")
        #expect(writers.lastWrite(by: "b") == nil && writers.lastWrite(by: "e") == minute + 1500)
    }
}
