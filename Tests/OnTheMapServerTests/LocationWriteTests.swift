import Foundation
import Hummingbird
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// docs/API.md, "StudentLocation" and "Who may write": create, read one, update, delete, who may write.
@Suite struct LocationWriteTests {
    let body = #"{"uniqueKey": "1234", "firstName": "Body", "lastName": "Name", "mapString": "Mountain View, CA ", "mediaURL": "https://udacity.com", "latitude": 37.386052, "longitude": -122.083851}"#

    @Test func v1CreateAnswers200WithCreatedAtAndObjectId() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let response = try await server.send(.post, "/v1/StudentLocation", body: body, headers: student.cookieHeader)
            #expect(response.status == .ok)
            let created = try JSONDecoder.strict.decode(StrictCreated.self, from: response.data)
            #expect(created.objectId.wholeMatch(of: /[A-Za-z0-9]{10}/) != nil)
            #expect(Set(try response.object().keys) == ["createdAt", "objectId"])
        }
    }

    @Test(arguments: ["/parse/classes/StudentLocation", "/1/classes/StudentLocation"])
    func parseCreateAnswers201WithLocation(path: String) async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            // Without --public-url the Location is a path: the Host header is the client's to choose.
            let response = try await server.send(.post, path, body: body, headers: student.cookieHeader + [.init("Host")!: "evil.example"])
            #expect(response.status == .created)
            let created = try JSONDecoder.strict.decode(StrictCreated.self, from: response.data)
            #expect(response.headers[.location] == "\(path)/\(created.objectId)")
        }
    }

    @Test func locationHeaderUsesThePublicURL() async throws {
        try await TestServer.run(configure: { $0.publicURL = PublicURL("https://map.example.org/") }) { server in
            let student = try await server.signUp()
            let response = try await server.send(.post, "/parse/classes/StudentLocation", body: body, headers: student.bearerHeader)
            let created = try JSONDecoder.strict.decode(StrictCreated.self, from: response.data)
            #expect(response.headers[.location] == "https://map.example.org/parse/classes/StudentLocation/\(created.objectId)")
        }
    }

    @Test func identityComesFromTheAccountAndMapStringIsKeptVerbatim() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(first: "Grace", last: "Hopper")
            let id = try await server.postLocation(as: student, mapString: "Mountain View, CA  ")
            let record = try JSONDecoder.strict.decode(StrictLocation.self, from: try await server.send(.get, "/v1/StudentLocation/\(id)").data)
            #expect(record.uniqueKey == student.key)
            #expect(record.firstName == "Grace")
            #expect(record.lastName == "Hopper")
            #expect(record.mapString == "Mountain View, CA  ")
        }
    }

    @Test func ignoresObjectIdDatesAndUnknownKeysAndAcceptsIntegerCoordinates() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let response = try await server.send(.post, "/v1/StudentLocation?foo=bar", body: """
                {"objectId": "", "createdAt": "22 Nov 2026 at 10:00", "updatedAt": "gestern", "extra": [1, 2],
                 "mapString": "Lagos", "mediaURL": "www.example.com", "latitude": 6, "longitude": 3}
                """, headers: student.cookieHeader)
            #expect(response.status == .ok)
            let id = try JSONDecoder.strict.decode(StrictCreated.self, from: response.data).objectId
            let record = try JSONDecoder.strict.decode(StrictLocation.self, from: try await server.send(.get, "/v1/StudentLocation/\(id)").data)
            #expect(record.latitude == 6 && record.longitude == 3)
            #expect(record.mediaURL == "https://www.example.com")
            #expect(abs(record.createdAt.timeIntervalSinceNow) < 60)
        }
    }

    @Test func secondCreateOverwritesTheFirstAndKeepsItsObjectId() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let first = try await server.postLocation(as: student, mapString: "Paris")
            let second = try await server.postLocation(as: student, mapString: "Berlin", path: "/parse/classes/StudentLocation")
            #expect(first == second)
            let all = try JSONDecoder.strict.decode(StrictResults.self, from: try await server.send(.get, "/v1/StudentLocation").data).results
            #expect(all.count == 1)
            #expect(all[0].mapString == "Berlin")
        }
    }

    @Test func readOneAndUnknownIds() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let id = try await server.postLocation(as: student)
            #expect(try await server.send(.get, "/1/classes/StudentLocation/\(id)").status == .ok)
            let missing = try await server.send(.get, "/v1/StudentLocation/AAAAAAAAAA")
            #expect(missing.status == .notFound)
            #expect(try missing.object()["status"] as? Int == 404)
            #expect(try missing.object()["code"] as? Int == 101)
            let parseMissing = try await server.send(.get, "/parse/classes/StudentLocation/AAAAAAAAAA")
            #expect(try JSONDecoder().decode(ParseError.self, from: parseMissing.data).code == 101)
            #expect(try parseMissing.object()["status"] == nil)
        }
    }

    @Test func ownerUpdatesWithTheCreateBody() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let id = try await server.postLocation(as: student)
            try await Task.sleep(for: .milliseconds(5))
            let response = try await server.send(.put, "/v1/StudentLocation/\(id)", body: body, headers: student.cookieHeader)
            #expect(response.status == .ok)
            let updated = try JSONDecoder.strict.decode(StrictUpdated.self, from: response.data)
            #expect(Set(try response.object().keys) == ["updatedAt"])
            let record = try JSONDecoder.strict.decode(StrictLocation.self, from: try await server.send(.get, "/v1/StudentLocation/\(id)").data)
            #expect(record.mapString == "Mountain View, CA ")
            #expect(record.uniqueKey == student.key)
            #expect(record.firstName == "Ada")
            #expect(record.updatedAt == updated.updatedAt)
            #expect(record.updatedAt > record.createdAt)
        }
    }

    @Test func updateAndDeleteOfUnknownIdAre404() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            #expect(try await server.send(.put, "/v1/StudentLocation/AAAAAAAAAA", body: body, headers: student.bearerHeader).status == .notFound)
            #expect(try await server.send(.delete, "/v1/StudentLocation/AAAAAAAAAA", headers: student.bearerHeader).status == .notFound)
        }
    }

    @Test func anotherAccountMayNotUpdateOrDelete() async throws {
        try await TestServer.run { server in
            let owner = try await server.signUp()
            let intruder = try await server.signUp()
            let id = try await server.postLocation(as: owner)
            let before = try await server.snapshot()
            let put = try await server.send(.put, "/v1/StudentLocation/\(id)", body: body, headers: intruder.cookieHeader)
            #expect(put.status == .forbidden)
            let delete = try await server.send(.delete, "/parse/classes/StudentLocation/\(id)", headers: intruder.cookieHeader)
            #expect(delete.status == .forbidden)
            #expect(try JSONDecoder().decode(ParseError.self, from: delete.data).code == 119)
            #expect(try await server.snapshot() == before)
        }
    }

    @Test func ownerDeletesWithABodyAndGetsEmptyObject() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let id = try await server.postLocation(as: student)
            let response = try await server.send(.delete, "/v1/StudentLocation/\(id)", body: #"{"why": "moving"}"#, headers: student.cookieHeader)
            #expect(response.status == .ok)
            #expect(response.text == "{}")
            #expect(try await server.send(.get, "/v1/StudentLocation/\(id)").status == .notFound)
        }
    }

    @Test func adminMayUpdateAndDeleteAnyLocation() async throws {
        try await TestServer.run { server in
            let owner = try await server.signUp(first: "Owner")
            let admin = try await server.signUp(first: "Admin")
            try await server.makeAdmin(admin)
            let id = try await server.postLocation(as: owner)
            #expect(try await server.send(.put, "/v1/StudentLocation/\(id)", body: #"{"mapString": "Fixed"}"#, headers: admin.bearerHeader).status == .ok)
            let record = try JSONDecoder.strict.decode(StrictLocation.self, from: try await server.send(.get, "/v1/StudentLocation/\(id)").data)
            #expect(record.firstName == "Owner")
            #expect(record.mapString == "Fixed")
            #expect(try await server.send(.delete, "/v1/StudentLocation/\(id)", headers: admin.bearerHeader).status == .ok)
        }
    }

    @Test func writesWithoutSessionAre401SayingToLogIn() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let id = try await server.postLocation(as: student)
            for (method, path) in [(HTTPRequest.Method.post, "/v1/StudentLocation"), (.put, "/v1/StudentLocation/\(id)"),
                                   (.delete, "/v1/StudentLocation/\(id)"), (.post, "/parse/classes/StudentLocation")] {
                let response = try await server.send(method, path, body: body)
                #expect(response.status == .unauthorized)
                #expect((try response.object()["error"] as? String)?.contains("logged in") == true)
            }
        }
    }

    @Test func expiredOrUnknownSessionIs401() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.post, "/v1/StudentLocation", body: body, headers: [.authorization: "Bearer 0123456789abcdef"])
            #expect(response.status == .unauthorized)
        }
    }

    @Test func putToTheCollectionOrWithEmptyIdIs4xxJSON() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            for path in ["/v1/StudentLocation", "/v1/StudentLocation/", "/parse/classes/StudentLocation/"] {
                let response = try await server.send(.put, path, body: body, headers: student.cookieHeader)
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD, POST")
                _ = try response.object()
            }
        }
    }
}
