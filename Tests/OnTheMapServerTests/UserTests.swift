import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// docs/API.md, "Users": public user data.
@Suite struct UserTests {
    @Test func byAccountKeyHasTheFullFieldSetAtTopLevelAndUnderUser() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(first: "Ada", last: "Lovelace")
            let response = try await server.send(.get, "/v1/users/\(student.key)")
            let json = try response.unprefixed()
            let top = try JSONDecoder().decode(StrictProfile.self, from: json)
            let nested = try JSONDecoder().decode(WrappedProfile.self, from: json).user
            for profile in [top, nested] {
                #expect(profile.first_name == "Ada")
                #expect(profile.last_name == "Lovelace")
                #expect(profile.nickname == "Ada Lovelace")
                #expect(profile.key == student.key)
            }
        }
    }

    @Test func legacyPathWrapsTheProfile() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let response = try await server.send(.get, "/api/users/\(student.key)")
            let profile = try JSONDecoder().decode(WrappedProfile.self, from: try response.unprefixed()).user
            #expect(profile.key == student.key)
        }
    }

    @Test func emailIsShownOnlyToItsOwner() async throws {
        try await TestServer.run { server in
            let ada = try await server.signUp(email: "ada@example.com")
            let grace = try await server.signUp(email: "grace@example.com")
            let own = try await server.send(.get, "/v1/users/\(ada.key)", headers: ada.cookieHeader)
            #expect(try JSONDecoder().decode(StrictProfile.self, from: try own.unprefixed()).email.address == "ada@example.com")
            let other = try await server.send(.get, "/v1/users/\(ada.key)", headers: grace.cookieHeader)
            #expect(try JSONDecoder().decode(StrictProfile.self, from: try other.unprefixed()).email.address == "")
            let anonymous = try await server.send(.get, "/v1/users/\(ada.key)")
            #expect(try JSONDecoder().decode(StrictProfile.self, from: try anonymous.unprefixed()).email.address == "")
        }
    }

    @Test func bySessionId() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let response = try await server.send(.get, "/v1/users/\(student.token)")
            #expect(try JSONDecoder().decode(StrictProfile.self, from: try response.unprefixed()).key == student.key)
        }
    }

    @Test func trailingAmpersandIsStripped() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let response = try await server.send(.get, "/v1/users/\(student.key)&")
            #expect(try JSONDecoder().decode(StrictProfile.self, from: try response.unprefixed()).key == student.key)
        }
    }

    @Test func hardCodedKeyFallsBackToTheCallersOwnAccount() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let response = try await server.send(.get, "/v1/users/3903878747", headers: student.cookieHeader)
            let profile = try JSONDecoder().decode(StrictProfile.self, from: try response.unprefixed())
            #expect(profile.key == student.key)
            #expect(profile.email.address == student.email)
        }
    }

    @Test func unknownIdWithoutSessionIs404() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.get, "/v1/users/3903878747")
            #expect(response.status == .notFound)
            #expect(try JSONDecoder().decode(UdacityError.self, from: try response.unprefixed()).status == 404)
        }
    }
}
