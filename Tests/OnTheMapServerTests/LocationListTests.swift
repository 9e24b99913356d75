import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapModel
import Testing

/// docs/API.md, "StudentLocation" and "Limits on queries": listing locations.
@Suite struct LocationListTests {
    /// Three students who post in order, so the newest is `students[2]`.
    func seeded(_ server: TestServer, count: Int = 3) async throws -> (students: [TestSession], ids: [String]) {
        var students: [TestSession] = []
        var ids: [String] = []
        for index in 0..<count {
            let student = try await server.signUp(first: "Student\(index)", last: "Last\(count - index)")
            ids.append(try await server.postLocation(as: student, mapString: "Place \(index)", latitude: Double(index), longitude: Double(index)))
            students.append(student)
            try await Task.sleep(for: .milliseconds(3))
        }
        return (students, ids)
    }

    func results(_ response: TestResponse) throws -> [StrictLocation] {
        try JSONDecoder.strict.decode(StrictResults.self, from: response.data).results
    }

    @Test(arguments: ["/v1/StudentLocation", "/parse/classes/StudentLocation", "/1/classes/StudentLocation"])
    func defaultListIsNewestUpdatedFirstWithAllTenFields(path: String) async throws {
        try await TestServer.run { server in
            let (_, ids) = try await seeded(server)
            let response = try await server.send(.get, path)
            #expect(response.status == .ok)
            let list = try results(response)
            #expect(list.map(\.objectId) == ids.reversed())
            let raw = try #require(try response.object()["results"] as? [[String: Any]])
            for record in raw {
                #expect(Set(record.keys) == ["objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL",
                                             "latitude", "longitude", "createdAt", "updatedAt"])
                #expect((record["createdAt"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
            }
        }
    }

    @Test func defaultLimitIs100AndLargerLimitsAreClamped() async throws {
        try await TestServer.run(configure: { $0.maxListLimit = 120 }) { server in
            let student = try await server.signUp()
            for index in 0..<130 {
                _ = try await server.store.saveLocation(
                    CompleteLocationFields(uniqueKey: "k\(index)", firstName: "F", lastName: "L", mapString: "M",
                                           mediaURL: "https://a.b", latitude: 0, longitude: 0),
                    ownerKey: index == 0 ? student.key : nil, in: .default, now: Int64(index))
            }
            #expect(try results(try await server.send(.get, "/v1/StudentLocation")).count == 100)
            #expect(try results(try await server.send(.get, "/v1/StudentLocation?limit=5000")).count == 120)
            #expect(try results(try await server.send(.get, "/v1/StudentLocation?limit=0")).isEmpty)
        }
    }

    @Test func skipPagesThroughAStableOrder() async throws {
        try await TestServer.run { server in
            let (_, ids) = try await seeded(server, count: 5)
            let first = try results(try await server.send(.get, "/v1/StudentLocation?limit=2"))
            let second = try results(try await server.send(.get, "/v1/StudentLocation?limit=2&skip=2"))
            let third = try results(try await server.send(.get, "/v1/StudentLocation?limit=2&skip=4"))
            #expect((first + second + third).map(\.objectId) == ids.reversed())
        }
    }

    @Test(arguments: [
        ("order=-updatedAt", [2, 1, 0]),
        ("order=updatedAt", [0, 1, 2]),
        ("order=createdAt", [0, 1, 2]),
        ("order=-updateAt", [2, 1, 0]),
        ("order=lastName", [2, 1, 0]),
        ("order=-latitude", [2, 1, 0]),
        ("order=nonsense,createdAt", [0, 1, 2]),
        ("order=", [2, 1, 0]),
    ])
    func orderKeys(query: String, expected: [Int]) async throws {
        try await TestServer.run { server in
            let (_, ids) = try await seeded(server)
            let list = try results(try await server.send(.get, "/v1/StudentLocation?\(query)"))
            #expect(list.map(\.objectId) == expected.map { ids[$0] })
        }
    }

    @Test func orderWithSeveralKeys() async throws {
        try await TestServer.run { server in
            let ada = try await server.signUp(first: "Ada", last: "Same")
            let bob = try await server.signUp(first: "Bob", last: "Same")
            let cy = try await server.signUp(first: "Cy", last: "Alpha")
            let a = try await server.postLocation(as: ada)
            let b = try await server.postLocation(as: bob)
            let c = try await server.postLocation(as: cy)
            let list = try results(try await server.send(.get, "/v1/StudentLocation?order=-lastName,firstName"))
            #expect(list.map(\.objectId) == [a, b, c])
        }
    }

    @Test func uniqueKeyParameterAndWhereUniqueKey() async throws {
        try await TestServer.run { server in
            let (students, ids) = try await seeded(server)
            let v1 = try results(try await server.send(.get, "/v1/StudentLocation?uniqueKey=\(students[1].key)"))
            #expect(v1.map(\.objectId) == [ids[1]])
            let whereJSON = #"{"uniqueKey":"\#(students[1].key)"}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let parse = try results(try await server.send(.get, "/parse/classes/StudentLocation?where=\(whereJSON)"))
            #expect(parse.map(\.objectId) == [ids[1]])
        }
    }

    @Test func whereOperators() async throws {
        try await TestServer.run { server in
            let (students, ids) = try await seeded(server)
            let keys = students.map(\.key)
            let created = try results(try await server.send(.get, "/v1/StudentLocation?order=createdAt"))
            let middle = WireTime.formatMillis(Int64(created[1].createdAt.timeIntervalSince1970 * 1000))
            let cases: [(String, [String])] = [
                (#"{"uniqueKey":{"$in":["\#(keys[0])","\#(keys[2])"]}}"#, [ids[2], ids[0]]),
                (#"{"uniqueKey":{"$nin":["\#(keys[0])"]}}"#, [ids[2], ids[1]]),
                (#"{"uniqueKey":{"$ne":"\#(keys[0])"}}"#, [ids[2], ids[1]]),
                (#"{"uniqueKey":{"$exists":true}}"#, [ids[2], ids[1], ids[0]]),
                (#"{"uniqueKey":{"$exists":false}}"#, []),
                (#"{"objectId":"\#(ids[1])"}"#, [ids[1]]),
                (#"{"objectId":{"$in":["\#(ids[0])"]}}"#, [ids[0]]),
                (#"{"createdAt":{"$gte":"\#(middle)"}}"#, [ids[2], ids[1]]),
                (#"{"createdAt":{"$gt":{"__type":"Date","iso":"\#(middle)"}}}"#, [ids[2]]),
                (#"{"updatedAt":{"$lt":"\#(middle)"}}"#, [ids[0]]),
                (#"{"updatedAt":{"$lte":"\#(middle)"}}"#, [ids[1], ids[0]]),
                (#"{"$or":[{"uniqueKey":"\#(keys[0])"},{"uniqueKey":"\#(keys[2])"}]}"#, [ids[2], ids[0]]),
                (#"{"uniqueKey":{"$in":["\#(keys[0])","\#(keys[1])"]},"objectId":{"$ne":"\#(ids[0])"}}"#, [ids[1]]),
                (#"{"noSuchField":"x"}"#, []),
                (#"{"noSuchField":{"$exists":false}}"#, [ids[2], ids[1], ids[0]]),
                (#"{"latitude":{"$gte":1}}"#, [ids[2], ids[1]]),
            ]
            for (clause, expected) in cases {
                let encoded = clause.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let response = try await server.send(.get, "/parse/classes/StudentLocation?where=\(encoded)")
                #expect(response.status == .ok, "\(clause): \(response.text)")
                #expect(try results(response).map(\.objectId) == expected, "\(clause)")
            }
        }
    }

    /// In Parse an empty constraint matches everything: `{}` alone or as a member of `$or`/`$and`.
    @Test(arguments: ["/v1/StudentLocation", "/parse/classes/StudentLocation", "/1/classes/StudentLocation"])
    func emptyConstraintsMatchEverything(path: String) async throws {
        try await TestServer.run { server in
            let (students, ids) = try await seeded(server)
            let cases: [(String, [String])] = [
                ("{}", [ids[2], ids[1], ids[0]]),
                (#"{"$or":[{}]}"#, [ids[2], ids[1], ids[0]]),
                (#"{"$and":[{}]}"#, [ids[2], ids[1], ids[0]]),
                (#"{"$or":[{},{"uniqueKey":"\#(students[0].key)"}]}"#, [ids[2], ids[1], ids[0]]),
                (#"{"$and":[{},{"uniqueKey":"\#(students[0].key)"}]}"#, [ids[0]]),
                (#"{"$or":[{"$and":[{}]}],"uniqueKey":"\#(students[1].key)"}"#, [ids[1]]),
            ]
            for (clause, expected) in cases {
                let encoded = clause.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let response = try await server.send(.get, "\(path)?where=\(encoded)&count=1")
                #expect(response.status == .ok, "\(clause): \(response.text)")
                let counted = try JSONDecoder.strict.decode(StrictCountedResults.self, from: response.data)
                #expect(counted.results.map(\.objectId) == expected, "\(clause)")
                #expect(counted.count == expected.count, "\(clause)")
            }
        }
    }

    /// Deep skips cost a walk over every skipped row: past the ceiling, a 400 in the family's shape.
    @Test func skipOverTheCeilingIsABadRequestInEachFamilysShape() async throws {
        try await TestServer.run(configure: { $0.maxSkip = 2 }) { server in
            let (_, ids) = try await seeded(server)
            #expect(try results(try await server.send(.get, "/v1/StudentLocation?skip=2")).map(\.objectId) == [ids[0]])
            let v1 = try await server.send(.get, "/v1/StudentLocation?skip=3")
            #expect(v1.status == .badRequest)
            #expect(try v1.object()["status"] as? Int == 400 && v1.object()["code"] as? Int == 102)
            for path in ["/parse/classes/StudentLocation", "/1/classes/StudentLocation"] {
                let parse = try await server.send(.get, path + "?skip=3")
                #expect(parse.status == .badRequest)
                #expect(try parse.object()["code"] as? Int == 102 && parse.object()["status"] == nil)
                #expect(try (parse.object()["error"] as? String)?.contains("skip may be at most 2") == true)
            }
        }
    }

    /// The total comes from a counter kept by the database, so it must follow every kind of write.
    @Test func countFollowsCreatesOverwritesAndDeletes() async throws {
        try await TestServer.run { server in
            let (students, ids) = try await seeded(server)
            func count() async throws -> Int? {
                try JSONDecoder.strict.decode(StrictCountedResults.self, from: try await server.send(.get, "/v1/StudentLocation?count=1&limit=0").data).count
            }
            #expect(try await count() == 3)
            try await server.postLocation(as: students[0], mapString: "Overwritten")
            #expect(try await count() == 3)
            #expect(try await server.send(.delete, "/v1/StudentLocation/\(ids[1])", headers: students[1].cookieHeader).status == .ok)
            #expect(try await count() == 2)
            #expect(try await server.store.deleteAccount(key: students[2].key))
            #expect(try await count() == 1)
        }
    }

    @Test func countAddsTheTotalMatching() async throws {
        try await TestServer.run { server in
            _ = try await seeded(server)
            let response = try await server.send(.get, "/parse/classes/StudentLocation?count=1&limit=1")
            let counted = try JSONDecoder.strict.decode(StrictCountedResults.self, from: response.data)
            #expect(counted.count == 3)
            #expect(counted.results.count == 1)
            #expect(try response.object()["count"] != nil)
            #expect(try await server.send(.get, "/v1/StudentLocation").object()["count"] == nil)
        }
    }

    @Test(arguments: ["?", "?&", "?limit=100&", "?&&order=-updatedAt&limit=100&&"])
    func toleratesEmptyAndTrailingSeparators(suffix: String) async throws {
        try await TestServer.run { server in
            let (_, ids) = try await seeded(server)
            let response = try await server.send(.get, "/v1/StudentLocation\(suffix)")
            #expect(response.status == .ok)
            #expect(try results(response).map(\.objectId) == ids.reversed())
        }
    }

    @Test func ignoresParseHeaders() async throws {
        try await TestServer.run { server in
            _ = try await seeded(server)
            let response = try await server.send(.get, "/parse/classes/StudentLocation?limit=100&order=-updatedAt", headers: [
                .init("X-Parse-Application-Id")!: "QrX47CA9cyuGewLdsL7o5Eb8iug6Em8ye0dnAbIr",
                .init("X-Parse-REST-API-Key")!: "QuWThTdiRmTux3YaDseUSEpUKo7aBYM737yKd4gY",
                .userAgent: "OnTheMap/1.0", .accept: "application/json",
            ])
            #expect(try results(response).count == 3)
        }
    }

    @Test func defaultListHasAnETagAndRevalidates() async throws {
        try await TestServer.run { server in
            let (students, _) = try await seeded(server)
            let first = try await server.send(.get, "/v1/StudentLocation")
            let etag = try #require(first.headers[.eTag])
            let again = try await server.send(.get, "/v1/StudentLocation", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            try await server.postLocation(as: students[0], mapString: "Moved")
            let changed = try await server.send(.get, "/v1/StudentLocation", headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect(try results(changed).first?.mapString == "Moved")
            #expect(changed.headers[.eTag] != etag)
        }
    }

    @Test func cachedListSeesEveryKindOfWrite() async throws {
        try await TestServer.run { server in
            let (students, ids) = try await seeded(server)
            _ = try await server.send(.get, "/v1/StudentLocation")
            try await server.send(.put, "/v1/StudentLocation/\(ids[0])", body: #"{"mapString": "Updated"}"#, headers: students[0].bearerHeader)
            #expect(try results(try await server.send(.get, "/v1/StudentLocation")).first?.mapString == "Updated")
            try await server.send(.delete, "/v1/StudentLocation/\(ids[0])", headers: students[0].bearerHeader)
            #expect(try results(try await server.send(.get, "/v1/StudentLocation")).count == 2)
        }
    }

    @Test func plusInWhereIsReadAsSpaceWhenTheJSONOtherwiseFails() async throws {
        try await TestServer.run { server in
            let (students, ids) = try await seeded(server)
            let response = try await server.send(.get, "/parse/classes/StudentLocation?where=%7B%22uniqueKey%22:+%22\(students[0].key)%22%7D")
            #expect(try results(response).map(\.objectId) == [ids[0]])
        }
    }
}
