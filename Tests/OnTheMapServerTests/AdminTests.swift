import Foundation
import HTTPTypes
import Testing
@testable import OnTheMapServer

/// The admin API, its guard and rules, reports, and hidden pins leaving
/// every path family while staying for their owner. Runs on each engine (make test).
@Suite struct AdminTests {
    /// An admin, a student with a pin, and the pin's objectId.
    static func course(_ server: TestServer) async throws -> (admin: TestSession, student: TestSession, pin: String) {
        let admin = try await server.signUp(email: "teacher\(UUID().uuidString.prefix(6).lowercased())@example.com", first: "Grace", last: "Hopper")
        try await server.makeAdmin(admin)
        let student = try await server.signUp(first: "Ada")
        let pin = try await server.postLocation(as: student, mapString: "Lyon, France")
        return (admin, student, pin)
    }

    private static let adminRequests: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/v1/admin/accounts", nil), (.patch, "/v1/admin/accounts/KEY", #"{"disabled": true}"#),
        (.post, "/v1/admin/accounts/KEY/password-reset", nil), (.get, "/v1/admin/locations", nil),
        (.patch, "/v1/admin/locations/PIN", #"{"hidden": true}"#), (.delete, "/v1/admin/locations/PIN", nil),
        (.get, "/v1/admin/reports", nil), (.post, "/v1/admin/reports/PIN/dismiss", nil),
        (.get, "/v1/admin/audit", nil), (.get, "/v1/admin/export?format=csv", nil),
    ]

    @Test func everyAdminRouteRefusesStudentsAndStrangersAndChangesNothing() async throws {
        try await TestServer.run { server in
            let (_, student, pin) = try await Self.course(server)
            let before = try await server.snapshot()
            for (method, path, body) in Self.adminRequests {
                let uri = path.replacingOccurrences(of: "KEY", with: student.key).replacingOccurrences(of: "PIN", with: pin)
                #expect(try await server.send(method, uri, body: body).status == .unauthorized, "\(method) \(uri) without a session")
                let asStudent = try await server.send(method, uri, body: body, headers: student.bearerHeader)
                #expect(asStudent.status == .forbidden, "\(method) \(uri) as a student")
                #expect(try asStudent.object()["error"] as? String == "Only an admin of this map may do this.")
            }
            #expect(try await server.snapshot() == before)
        }
    }

    @Test func aHiddenPinLeavesEveryFamilyButStaysForItsOwner() async throws {
        try await TestServer.run { server in
            let (admin, student, pin) = try await Self.course(server)
            let hidden = try await server.send(.patch, "/v1/admin/locations/\(pin)", body: #"{"hidden": true}"#, headers: admin.bearerHeader)
            #expect(hidden.status == .ok)
            #expect(try hidden.object()["hidden"] as? Bool == true)
            for list in ["/v1/StudentLocation", "/parse/classes/StudentLocation", "/1/classes/StudentLocation", "/v1/StudentLocation?count=1"] {
                let answer = try await server.send(.get, list)
                #expect(!answer.text.contains(pin), "\(list) still lists the hidden pin")
                if list.hasSuffix("count=1") { #expect(try answer.object()["count"] as? Int == 0) }
            }
            for one in ["/v1/StudentLocation/\(pin)", "/parse/classes/StudentLocation/\(pin)"] {
                #expect(try await server.send(.get, one).status == .notFound, "\(one)")
            }
            let me = try await server.send(.get, "/v1/me", headers: student.bearerHeader).object()
            #expect((me["location"] as? [String: Any])?["objectId"] as? String == pin)
            #expect(me["locationHidden"] as? Bool == true)
            // Posting again updates the hidden pin; it stays hidden.
            try await server.postLocation(as: student, mapString: "Paris, France")
            #expect(!(try await server.send(.get, "/v1/StudentLocation").text.contains("Paris")))
            // Shown again, it is back everywhere.
            _ = try await server.send(.patch, "/v1/admin/locations/\(pin)", body: #"{"hidden": false}"#, headers: admin.bearerHeader)
            let back = try await server.send(.get, "/parse/classes/StudentLocation?count=1").object()
            #expect(back["count"] as? Int == 1)
            #expect(try await server.send(.get, "/v1/StudentLocation").text.contains("Paris, France"))
        }
    }

    @Test func reportsGoToAdminsAndResolveWithTheirPin() async throws {
        try await TestServer.run { server in
            let (admin, student, pin) = try await Self.course(server)
            let reporter = try await server.signUp(first: "Reporter")
            let body = #"{"objectId": "\#(pin)", "reason": "spam"}"#
            #expect(try await server.send(.post, "/v1/reports", body: body).status == .unauthorized)
            #expect(try await server.send(.post, "/v1/reports", body: body, headers: reporter.bearerHeader).status == .created)
            #expect(try await server.send(.post, "/v1/reports", body: body, headers: reporter.bearerHeader).status == .ok, "once until resolved")
            let own = try await server.send(.post, "/v1/reports", body: body, headers: student.bearerHeader)
            #expect(own.status == .badRequest)
            let badReason = try await server.send(.post, "/v1/reports", body: #"{"objectId": "\#(pin)", "reason": "meh"}"#, headers: reporter.bearerHeader)
            #expect(badReason.status == .badRequest)
            #expect(try badReason.object()["error"] as? String == #"reason must be one of spam, offensive, personal-information, wrong-place, other; got "meh"."#)

            let open = try await server.send(.get, "/v1/admin/reports", headers: admin.bearerHeader).object()["results"] as? [[String: Any]]
            #expect(open?.count == 1)
            #expect(open?.first?["objectId"] as? String == pin)
            #expect((open?.first?["reports"] as? [[String: Any]])?.count == 1)
            _ = try await server.send(.patch, "/v1/admin/locations/\(pin)", body: #"{"hidden": true}"#, headers: admin.bearerHeader)
            let after = try await server.send(.get, "/v1/admin/reports", headers: admin.bearerHeader).object()["results"] as? [[String: Any]]
            #expect(after?.isEmpty == true, "hiding resolves the pin's reports")
            let all = try await server.send(.get, "/v1/admin/reports?status=all", headers: admin.bearerHeader).object()["results"] as? [[String: Any]]
            #expect(((all?.first?["reports"] as? [[String: Any]])?.first?["resolution"] as? String) == "hidden")
        }
    }

    /// A report's id is the same number for its reporter and for the admins.
    @Test func aReportHasOneIdEverywhere() async throws {
        try await TestServer.run { server in
            let (admin, _, pin) = try await Self.course(server)
            let reporter = try await server.signUp(first: "Reporter")
            let made = try await server.send(.post, "/v1/reports", body: #"{"objectId": "\#(pin)", "reason": "spam"}"#, headers: reporter.bearerHeader)
            let id = try #require(try made.object()["id"] as? Int)
            let listed = try await server.send(.get, "/v1/admin/reports", headers: admin.bearerHeader).object()["results"] as? [[String: Any]]
            #expect((listed?.first?["reports"] as? [[String: Any]])?.first?["id"] as? Int == id)
            #expect(made.text.contains(#""id":\#(id),"#))
        }
    }

    @Test func disablingEndsSessionsAndRefusesLogins() async throws {
        try await TestServer.run { server in
            let (admin, student, _) = try await Self.course(server)
            let disabled = try await server.send(.patch, "/v1/admin/accounts/\(student.key)", body: #"{"disabled": true}"#, headers: admin.bearerHeader)
            #expect(disabled.status == .ok)
            #expect(try disabled.object()["disabled"] as? Bool == true)
            #expect(try await server.send(.get, "/v1/me", headers: student.bearerHeader).status == .unauthorized)
            let login = #"{"udacity": {"username": "\#(student.email)", "password": "\#(student.password)"}}"#
            let refused = try await server.send(.post, "/v1/session", body: login)
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("disabled by an admin"))
            let wrong = try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "\#(student.email)", "password": "not it at all"}}"#)
            #expect(!wrong.text.contains("disabled"), "only the right password learns the account is disabled")
            _ = try await server.send(.patch, "/v1/admin/accounts/\(student.key)", body: #"{"disabled": false}"#, headers: admin.bearerHeader)
            #expect(try await server.send(.post, "/v1/session", body: login).status == .ok)
        }
    }

    @Test func theLastActiveAdminStays() async throws {
        try await TestServer.run { server in
            let (admin, student, _) = try await Self.course(server)
            for change in [#"{"isAdmin": false}"#, #"{"disabled": true}"#] {
                let refused = try await server.send(.patch, "/v1/admin/accounts/\(admin.key)", body: change, headers: admin.bearerHeader)
                #expect(refused.status == .conflict, "\(change)")
            }
            #expect(try await server.send(.patch, "/v1/admin/accounts/\(student.key)", body: #"{"isAdmin": true}"#, headers: admin.bearerHeader).status == .ok)
            #expect(try await server.send(.patch, "/v1/admin/accounts/\(admin.key)", body: #"{"isAdmin": false}"#, headers: admin.bearerHeader).status == .ok)
            #expect(try await server.send(.get, "/v1/admin/accounts", headers: admin.bearerHeader).status == .forbidden)
            let other = try await server.send(.patch, "/v1/admin/accounts/\(student.key)", body: #"{"isAdmin": false}"#, headers: student.bearerHeader)
            #expect(other.status == .conflict, "the new admin is now the last")
        }
    }

    @Test func everyActionIsInTheAuditLogNewestFirst() async throws {
        try await TestServer.run { server in
            let (admin, student, pin) = try await Self.course(server)
            _ = try await server.send(.patch, "/v1/admin/locations/\(pin)", body: #"{"hidden": true}"#, headers: admin.bearerHeader)
            _ = try await server.send(.patch, "/v1/admin/locations/\(pin)", body: #"{"hidden": true}"#, headers: admin.bearerHeader)
            _ = try await server.send(.patch, "/v1/admin/accounts/\(student.key)", body: #"{"disabled": true}"#, headers: admin.bearerHeader)
            _ = try await server.send(.post, "/v1/admin/accounts/\(student.key)/password-reset", headers: admin.bearerHeader)
            _ = try await server.send(.delete, "/v1/admin/locations/\(pin)", headers: admin.bearerHeader)
            let log = try await server.send(.get, "/v1/admin/audit", headers: admin.bearerHeader).object()["results"] as? [[String: Any]] ?? []
            #expect(log.map { $0["action"] as? String } == ["delete-location", "issue-password-reset", "disable-account", "hide-location"],
                    "hiding twice is recorded once")
            #expect(log.allSatisfy { $0["actorEmail"] as? String == admin.email })
            #expect(log.last?["detail"] as? String == "Lyon, France, by Ada Lovelace")
        }
    }

    /// A reset link is on the configured public URL, or a bare path; never on the host a
    /// request names, which a forged `Host` would turn into a link to someone else's site.
    @Test func aResetLinkNeverTakesTheRequestsHost() async throws {
        for (publicURL, prefix) in [(nil, "/#/reset/"), ("https://map.example.org", "https://map.example.org/#/reset/")] {
            // Live: the request's authority is the Host header it was sent with.
            try await TestServer.run(configure: { $0.publicURL = publicURL.flatMap(PublicURL.init) }, live: true) { server in
                let (admin, student, _) = try await Self.course(server)
                let issued = try await server.send(.post, "/v1/admin/accounts/\(student.key)/password-reset",
                                                   headers: admin.bearerHeader + [HTTPField.Name("Host")!: "evil.example.com"])
                #expect(issued.status == .created)
                let url = try #require(try issued.object()["url"] as? String)
                #expect(url.hasPrefix(prefix) && !url.contains("evil"), "\(url)")
            }
        }
    }

    @Test func aResetLinkSetsANewPasswordOnce() async throws {
        try await TestServer.run { server in
            let (admin, student, _) = try await Self.course(server)
            let issued = try await server.send(.post, "/v1/admin/accounts/\(student.key)/password-reset", headers: admin.bearerHeader)
            #expect(issued.status == .created)
            let url = try #require(try issued.object()["url"] as? String)
            let token = try #require(url.components(separatedBy: "#/reset/").last)
            let reset = #"{"token": "\#(token)", "password": "a brand new passphrase"}"#
            #expect(try await server.send(.post, "/v1/password-reset", body: reset).status == .ok)
            #expect(try await server.send(.get, "/v1/me", headers: student.bearerHeader).status == .unauthorized, "sessions end")
            #expect(try await server.send(.post, "/v1/password-reset", body: reset).status == .badRequest, "once")
            let login = #"{"udacity": {"username": "\#(student.email)", "password": "a brand new passphrase"}}"#
            #expect(try await server.send(.post, "/v1/session", body: login).status == .ok)
        }
    }

    @Test func theClassMapDownloadsWithoutHiddenPins() async throws {
        try await TestServer.run { server in
            let (admin, student, pin) = try await Self.course(server)
            let other = try await server.signUp(first: "Other")
            try await server.postLocation(as: other, mapString: "Quito, Ecuador")
            _ = try await server.send(.patch, "/v1/admin/locations/\(pin)", body: #"{"hidden": true}"#, headers: admin.bearerHeader)
            let csv = try await server.send(.get, "/v1/admin/export?format=csv", headers: admin.bearerHeader)
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"on-the-map.csv\"")
            #expect(csv.text.contains("Quito, Ecuador"))
            #expect(!csv.text.contains("Lyon"))
            let geojson = try await server.send(.get, "/v1/admin/export", headers: admin.bearerHeader)
            let features = try (JSONSerialization.jsonObject(with: geojson.data) as? [String: Any])?["features"] as? [Any]
            #expect(features?.count == 1)
            _ = student
        }
    }
}
