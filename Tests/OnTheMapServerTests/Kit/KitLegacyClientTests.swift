import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import OnTheMapKit
@testable import OnTheMapServer
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

/// LegacyClient speaks the old protocol on each StudentLocation family and both Udacity
/// session paths, so an old app can move onto the package call by call, and uses the course its
/// base URL's path names.
extension KitSuite {
@Suite struct KitLegacyClientTests {
    @Test(arguments: KitTransport.allCases, LegacyClient.Family.allCases)
    func theOldCallsWorkOnEveryFamily(transport: KitTransport, family: LegacyClient.Family) async throws {
        try await KitSuite.live { server, port in
            let legacy = transport.legacy(port: port, family: family, sessionPaths: family == .v1 ? .v1 : .api)
            let student = try await server.signUp(first: "Katherine", last: "Johnson")

            let wrong = await kindThrown { try await legacy.createSession(username: student.email, password: "not it at all") }
            #expect(wrong?.kind == .wrongCredentials)
            let session = try await legacy.createSession(username: student.email, password: student.password)
            #expect(session.accountKey == student.key)
            let user = try await legacy.userData(key: session.accountKey)
            #expect(user.firstName == "Katherine" && user.lastName == "Johnson")

            let posted = try await legacy.postStudentLocation(
                uniqueKey: session.accountKey, firstName: user.firstName, lastName: user.lastName,
                NewLocation(mapString: "Hampton, VA", mediaURL: "https://nasa.gov", latitude: 37.03, longitude: -76.35))
            let mine = try await legacy.studentLocations(.latest(100).where(.uniqueKey, .equals(.text(session.accountKey))))
            #expect(mine.locations.map(\.objectId) == [posted.objectId])
            #expect(mine.locations.first?.createdAt == posted.createdAt)

            let updatedAt = try await legacy.putStudentLocation(
                objectId: posted.objectId, NewLocation(mapString: "Houston, TX", mediaURL: "https://nasa.gov", latitude: 29.76, longitude: -95.37))
            let moved = try #require(try await legacy.studentLocations().locations.first)
            #expect(moved.mapString == "Houston, TX" && moved.updatedAt == updatedAt)

            let other = try await server.signUp()
            let theirs = try await server.postLocation(as: other)
            let refused = await kindThrown { try await legacy.deleteStudentLocation(objectId: theirs) }
            #expect(refused?.kind == .notOwner && refused?.code == 119 && refused?.status == 403)

            try await legacy.deleteStudentLocation(objectId: posted.objectId)
            #expect(try await legacy.studentLocations(LocationQuery().counted().limit(0)).count == 1)
            try await legacy.deleteSession()
            let loggedOut = await kindThrown {
                try await legacy.postStudentLocation(uniqueKey: "", firstName: "", lastName: "", NewLocation(
                    mapString: "Nowhere", mediaURL: "https://example.com", latitude: 0, longitude: 0))
            }
            #expect(loggedOut?.kind == .notLoggedIn)
        }
    }

    @Test func eachFamilyIsReachedOnItsOwnPaths() async throws {
        try await KitSuite.live { server, port in
            let student = try await server.signUp()
            let expected: [(LegacyClient.Family, LegacyClient.SessionPaths, String, String)] = [
                (.v1, .v1, "/v1/StudentLocation", "/v1/session"),
                (.parse, .api, "/parse/classes/StudentLocation", "/api/session"),
                (.parse1, .api, "/1/classes/StudentLocation", "/api/session"),
            ]
            for (family, sessionPaths, locations, session) in expected {
                let recorder = PathRecorder()
                let legacy = LegacyClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, family: family, sessionPaths: sessionPaths,
                                          transport: recorder)
                try await legacy.createSession(username: student.email, password: student.password)
                _ = try await legacy.studentLocations()
                #expect(recorder.paths.first == session)
                #expect(recorder.paths.last?.hasPrefix(locations + "?") == true, "\(recorder.paths)")
            }
        }
    }

    @Test(arguments: KitTransport.allCases, LegacyClient.Family.allCases)
    func theLegacyClientUsesTheCourseItsBaseURLNames(transport: KitTransport, family: LegacyClient.Family) async throws {
        try await KitSuite.live { server, port in
            let teacher = try await server.signUp()
            let ada = try await server.signUp(first: "Katherine", last: "Johnson")
            let stranger = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher, students: [ada])
            try await server.postLocation(as: ada)
            let sessionPaths: LegacyClient.SessionPaths = family == .v1 ? .v1 : .api
            let legacy = transport.legacy(port: port, path: "/c/cs101/", family: family, sessionPaths: sessionPaths)

            let refused = await kindThrown { try await legacy.createSession(username: stranger.email, password: stranger.password) }
            #expect(refused?.kind == .notACourseMember)
            let session = try await legacy.createSession(username: ada.email, password: ada.password)
            #expect(try await legacy.userData(key: session.accountKey).firstName == "Katherine")
            #expect(try await legacy.studentLocations().locations.isEmpty, "the default course's pin is not cs101's")
            let posted = try await legacy.postStudentLocation(
                uniqueKey: session.accountKey, firstName: "K", lastName: "J",
                NewLocation(mapString: "Lima", mediaURL: "https://example.com", latitude: -12, longitude: -77))
            #expect(try await legacy.studentLocations().locations.map(\.objectId) == [posted.objectId])
            #expect(try await server.list("/c/cs101/v1/StudentLocation", as: ada).map(\.objectId) == [posted.objectId])
            try await legacy.deleteStudentLocation(objectId: posted.objectId)
            try await legacy.deleteSession()

            let unknown = transport.legacy(port: port, path: "/c/no-such-course", family: family, sessionPaths: sessionPaths)
            #expect(await kindThrown { try await unknown.studentLocations() }?.kind == .courseNotFound)
        }
    }

    @Test func theLegacyClientSendsEachCallUnderTheBaseURLsPathOnce() async throws {
        try await KitSuite.live { server, port in
            let teacher = try await server.signUp()
            try await server.makeCourse("cs101", instructor: teacher)
            let recorder = PathRecorder()
            let legacy = LegacyClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)/c/cs101/")), family: .parse1,
                                      sessionPaths: .api, transport: recorder)
            try await legacy.createSession(username: teacher.email, password: teacher.password)
            _ = try await legacy.studentLocations()
            #expect(recorder.paths.first == "/c/cs101/api/session")
            #expect(recorder.paths.last?.hasPrefix("/c/cs101/1/classes/StudentLocation?") == true, "\(recorder.paths)")
        }
    }
}
}

/// URLSession's transport, noting each request's path as the transports make it: the base URL's
/// path, then the operation's.
final class PathRecorder: ClientTransport, Sendable {
    private let inner = URLSessionTransport()
    private let recorded = NIOLockedValueBox<[String]>([])
    var paths: [String] { recorded.withLockedValue { $0 } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let basePath = URLComponents(string: baseURL.absoluteString)?.percentEncodedPath ?? ""
        recorded.withLockedValue { $0.append(basePath + (request.path ?? "")) }
        return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
