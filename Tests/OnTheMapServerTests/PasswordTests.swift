import Foundation
import HummingbirdBcrypt
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import Testing

/// ASVS 5.0 V6: every character of a password counts, NUL and any script
/// included; the same text in either Unicode form is the same password; the most common passwords
/// are refused at sign-up; hashes made before the scheme keep working and are replaced.
@Suite struct PasswordTests {
    @Test(arguments: [
        // 80 ASCII characters: bcrypt alone reads the first 72.
        (String(repeating: "long-enough-", count: 6) + "tail-one", String(repeating: "long-enough-", count: 6) + "tail-two"),
        // 40 CJK characters (120 bytes): bcrypt alone reads the first 24.
        (String(repeating: "地図上の学生", count: 6) + "北海道札幌", String(repeating: "地図上の学生", count: 6) + "沖縄県那覇"),
        // A NUL ends a C string: bcrypt alone stops there.
        ("before\u{0}after-one", "before\u{0}after-two"),
    ])
    func everyCharacterCounts(password: String, sameStartOtherEnd: String) async throws {
        try await TestServer.run { server in
            let student = try await server.signUp(password: password)
            #expect(try await logIn(server, student.email, sameStartOtherEnd).status == .forbidden)
            #expect(try await logIn(server, student.email, password).status == .ok)
        }
    }

    @Test func eitherUnicodeFormOfTheSameTextIsTheSamePassword() async throws {
        try await TestServer.run { server in
            let decomposed = "cafe\u{301} cre\u{300}me"  // é and è as letter + accent
            let student = try await server.signUp(password: decomposed)
            #expect(try await logIn(server, student.email, "caf\u{E9} cr\u{E8}me").status == .ok)
        }
    }

    @Test func lengthsFrom8To128AreAccepted() async throws {
        try await TestServer.run { server in
            for length in [8, 64, 128] {
                let password = String(repeating: "ź", count: length - 4) + "9q!k"
                let student = try await server.signUp(password: password)
                #expect(try await logIn(server, student.email, password).status == .ok, "\(length)")
            }
            let tooLong = try await server.send(.post, "/v1/accounts", body: signUpBody("long@example.com", String(repeating: "x", count: 129)))
            #expect(tooLong.status == .badRequest)
        }
    }

    @Test(arguments: ["password", "12345678", "Password1", "QWERTYUIOP", "iloveyou"])
    func aCommonPasswordIsRefusedAtSignUp(password: String) async throws {
        try await TestServer.run { server in
            let before = try await server.snapshot()
            let response = try await server.send(.post, "/v1/accounts", body: signUpBody("common@example.com", password))
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.text.contains("most common passwords"))
            #expect(try await server.snapshot() == before)
        }
    }

    /// NIST SP 800-63B 3.1.1.2: repetitive and sequential passwords are refused
    /// too, wherever a password is chosen.
    @Test(arguments: ["zzzzzzzzzzzz", "ŻŻŻŻŻŻŻŻŻŻŻŻ", "xyxyxyxyxyxy", "pqrpqrpqrpqr", "lmnopqrstuvw", "98765432", "5678mnop", "qqqqqqqq7777"])
    func aRepetitiveOrSequentialPasswordIsRefusedAtSignUp(password: String) async throws {
        try await TestServer.run { server in
            let before = try await server.snapshot()
            let response = try await server.send(.post, "/v1/accounts", body: signUpBody("runs@example.com", password))
            #expect(response.status == .badRequest, "\(response.text)")
            #expect(response.text.contains("repeated or consecutive characters"))
            #expect(try await server.snapshot() == before)
        }
    }

    @Test(arguments: ["correct horse", "abcd-wxyz-1234", "Zq9!Zq9!", "aaaa bbbb cccc", "stuv wxyz"])
    func passwordsWithMoreThanTwoRunsAreNotRepetitive(password: String) {
        #expect(!PasswordRules.isRepetitiveOrSequential(Array(password.lowercased().unicodeScalars)))
    }

    @Test func aHashFromBeforeTheSchemeStillWorksAndIsReplacedAtLogin() async throws {
        try await TestServer.run { server in
            let legacy = Bcrypt.hash("legacy password", cost: 4)
            let account = try await server.store.createAccount(
                email: "old@example.com", firstName: "Old", lastName: "Hash", passwordHash: legacy, isAdmin: false)
            #expect(try await logIn(server, "old@example.com", "wrong password").status == .forbidden)
            #expect(try await server.store.account(key: account.key)?.passwordHash == legacy)
            #expect(try await logIn(server, "old@example.com", "legacy password").status == .ok)
            let replaced = try #require(try await server.store.account(key: account.key)?.passwordHash)
            #expect(replaced.hasPrefix(PasswordScheme.prefix))
            #expect(try await logIn(server, "old@example.com", "legacy password").status == .ok)
        }
    }

    private func logIn(_ server: TestServer, _ email: String, _ password: String) async throws -> TestResponse {
        try await server.send(.post, "/v1/session", body: json(["udacity": ["username": email, "password": password]]))
    }

    private func signUpBody(_ email: String, _ password: String) throws -> String {
        try json(["email": email, "password": password, "firstName": "Pat", "lastName": "Doe"])
    }

    private func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }
}
