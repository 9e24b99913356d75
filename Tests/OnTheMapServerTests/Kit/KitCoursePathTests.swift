import Foundation
@testable import OnTheMapKit
@testable import OnTheMapServer
import OnTheMapModel
import Testing

/// How a course reaches the wire, without a server: which operations go under `/c/{slug}`, how a
/// base URL and an invite link are read, and the server's words the errors are told apart by.
extension KitSuite {
@Suite struct KitCoursePathTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The operations the Kit is generated from, as the generator's filter lists them.
    static func generatedOperations() throws -> Set<String> {
        let config = try String(contentsOf: root.appendingPathComponent("scripts/openapi/openapi-generator-config.yaml"), encoding: .utf8)
        return Set(config.split(separator: "\n").compactMap { line in
            line.hasPrefix("    - ") ? String(line.dropFirst(6)) : nil
        })
    }

    @Test func theCourseServedOperationsAreTheDocumentsOnes() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("Sources/OnTheMapServer/Public/openapi.json"))
        let paths = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["paths"] as? [String: [String: Any]])
        var courseServed: [String: Bool] = [:]
        for item in paths.values {
            let servers = (item["servers"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
            for operation in item.values.compactMap({ ($0 as? [String: Any])?["operationId"] as? String }) {
                courseServed[operation] = servers.contains("/c/{course}")
            }
        }
        let generated = try Self.generatedOperations()
        #expect(generated.count > 20 && generated.contains("courseJoin"))
        for operation in generated {
            let inDocument = try #require(courseServed[operation] as Bool?, "\(operation) is not in the document")
            #expect(CoursePathPrefixing.courseServed.contains(operation) == inDocument, "\(operation): /c/{course} \(inDocument)")
        }
        #expect(CoursePathPrefixing.courseServed.isSubset(of: generated))
    }

    @Test func aBaseURLIsReadAsTheServerAndACourse() throws {
        func read(_ text: String) throws -> (String, String?) {
            let address = ServerAddress(try #require(URL(string: text)))
            return (address.root.absoluteString, address.course)
        }
        #expect(try read("https://map.example.edu") == ("https://map.example.edu", nil))
        #expect(try read("https://map.example.edu/") == ("https://map.example.edu", nil))
        #expect(try read("https://map.example.edu/c/cs101/") == ("https://map.example.edu", "cs101"))
        #expect(try read("https://map.example.edu/c/cs101") == ("https://map.example.edu", "cs101"))
        #expect(try read("https://school.edu/onthemap/c/cs101-spring/") == ("https://school.edu/onthemap", "cs101-spring"))
        #expect(try read("https://school.edu/onthemap/") == ("https://school.edu/onthemap", nil))
        #expect(try read("http://127.0.0.1:8080/c/") == ("http://127.0.0.1:8080/c", nil), "no slug: a path like any other")
        let legacy = ServerAddress(try #require(URL(string: "https://map.example.edu/c/cs101/")), readingCourse: false)
        #expect(legacy.root.absoluteString == "https://map.example.edu/c/cs101" && legacy.course == nil)
        #expect(CoursePathPrefixing(slug: "cs101").prefix == "/c/cs101")
        #expect(CoursePathPrefixing(slug: "../admin?x").prefix == "/c/..%2Fadmin%3Fx")
    }

    @Test func anInviteLinkIsReadInEitherForm() throws {
        let token = "AbCdEfGhIjKlMnOpQrSt-_"
        func read(_ text: String) throws -> InviteLink? { InviteLink(try #require(URL(string: text))) }
        #expect(try read("https://map.example.edu/c/cs101/join/\(token)") == InviteLink(slug: "cs101", token: token))
        #expect(try read("https://school.edu/onthemap/c/cs101/join/\(token)") == InviteLink(slug: "cs101", token: token))
        #expect(try read("/c/cs101/join/\(token)") == InviteLink(slug: "cs101", token: token), "the server's link without --public-url")
        #expect(try read("https://map.example.edu/#/join/cs101/\(token)") == InviteLink(slug: "cs101", token: token))
        #expect(try read("https://map.example.edu/c/cs101/") == nil)
        #expect(try read("https://map.example.edu/#/map") == nil)
        #expect(try read(token) == nil)
    }

    @Test func courseRefusalsAreToldApartByTheServersWords() {
        let expected: [(APIError, OnTheMapError.Kind)] = [
            (.courseNotFound, .courseNotFound), (.notACourseMember, .notACourseMember), (.courseArchived, .courseArchived),
            (.inviteNotValid, .inviteNotValid),
        ]
        for (refusal, kind) in expected {
            for operation in ["udacity-session-login", "v1-create", "parse-list", "courseJoin"] {
                let body = #"{"code":\#(refusal.code),"error":"\#(refusal.message)","status":\#(refusal.status)}"#
                let error = OnTheMapError(status: refusal.status, body: Data(body.utf8), retryAfter: nil, operationID: operation)
                #expect(error.kind == kind, "\(refusal.message) at \(operation)")
            }
        }
        #expect(OnTheMapError.courseMessages.count == expected.count)
        let slugTaken = APIError.courseSlugTaken
        let body = #"{"code":\#(slugTaken.code),"error":"x","parameter":"slug","status":409}"#
        #expect(OnTheMapError(status: 409, body: Data(body.utf8), retryAfter: nil, operationID: "createCourse").kind == .courseSlugTaken)
        let running = #"{"code":159,"error":"still running","status":409}"#
        #expect(OnTheMapError(status: 409, body: Data(running.utf8), retryAfter: nil, operationID: "createCourse").kind == .duplicateRequest)
    }
}
}
