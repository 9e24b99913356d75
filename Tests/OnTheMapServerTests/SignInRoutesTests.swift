import Foundation
import HTTPTypes
import HummingbirdTesting
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapStore
import Testing

/// Sign-in with a provider: its settings, and what the routes answer before any provider
/// is asked (the full flow against a real provider is `scripts/test/oidc-test.sh`).
@Suite struct SignInRoutesTests {
    static let school = try! SignInProvider(
        id: "school", displayName: "School account", issuer: "https://id.example.edu", clientID: "onthemap", clientSecret: "s")

    static func withProviders(_ body: @Sendable (TestServer) async throws -> Void) async throws {
        try await TestServer.run(configure: { configuration in
            configuration.publicURL = PublicURL("https://map.example.org")
            configuration.signInProviders = [Self.school]
        }, body)
    }

    @Test func settingsAreReadFromOneLine() throws {
        let provider = try SignInProvider.parse(
            #"id=school, name=Springfield\, Elementary,issuer=https://login.example.edu/realms/s,client-id=otm,client-secret-file=/run/secret,trust-email"#
        ) { path in
            #expect(path == "/run/secret")
            return "from-the-file\n"
        }
        #expect(provider == (try SignInProvider(id: "school", displayName: "Springfield, Elementary", issuer: "https://login.example.edu/realms/s",
                                                clientID: "otm", clientSecret: "from-the-file", trustsEmail: true)))
    }

    @Test(arguments: [
        ("id=s,name=S,issuer=https://i.example,client-id=c", "client-secret (or client-secret-file) is missing"),
        ("id=s,name=S,issuer=https://i.example,client-id=c,client-secret=x,client-secret-file=/f", "give client-secret or client-secret-file, not both"),
        ("id=s,name=S,issuer=https://i.example,client-id=c,client-secret=x,colour=red", "unknown setting \"colour\""),
        ("id=s,id=t,name=S,issuer=https://i.example,client-id=c,client-secret=x", "id is given twice"),
        ("id=Big School,name=S,issuer=https://i.example,client-id=c,client-secret=x", "id must be 1 to 32 of a-z"),
        ("id=s,name=S,issuer=http://i.example,client-id=c,client-secret=x", "issuer must be an https URL"),
        ("id=s,name=S,issuer=https://i.example?x=1,client-id=c,client-secret=x", "issuer must be an https URL"),
        ("id=s,name= ,issuer=https://i.example,client-id=c,client-secret=x", "name must be 1 to 60 characters"),
        ("id=s,name=S,issuer=https://i.example,client-id=c,client-secret=x,token-endpoint=http://i.example/token", "token-endpoint must be an https URL"),
    ])
    func badSettingsSayWhatIsWrong(line: String, message: String) {
        #expect {
            _ = try SignInProvider.parse(line) { _ in "" }
        } throws: { error in
            (error as? SignInProvider.Invalid)?.description.contains(message) == true
        }
    }

    /// Facebook's discovery document names no token endpoint (its code flow has one all the same):
    /// the provider's `token-endpoint` setting supplies it, and without it the document is refused.
    @Test func aDiscoveryWithoutATokenEndpointNeedsTheSetting() throws {
        let document = """
            {"issuer": "https://www.facebook.com", "authorization_endpoint": "https://facebook.com/dialog/oauth/",
             "jwks_uri": "https://www.facebook.com/.well-known/oauth/openid/jwks/", "response_types_supported": ["id_token", "token id_token"]}
            """
        var metadata = try JSONDecoder().decode(ProviderMetadata.self, from: Data(document.utf8))
        #expect(throws: SignInFailure.self) { try metadata.check(configuredIssuer: "https://www.facebook.com") }
        let facebook = try SignInProvider.parse(
            "id=facebook,name=Facebook,issuer=https://www.facebook.com,client-id=1,client-secret=x,token-endpoint=https://graph.facebook.com/v21.0/oauth/access_token,trust-email"
        ) { _ in "" }
        metadata.tokenEndpoint = facebook.tokenEndpoint
        #expect(throws: Never.self) { try metadata.check(configuredIssuer: facebook.issuer) }
        #expect(metadata.tokenEndpoint?.absoluteString == "https://graph.facebook.com/v21.0/oauth/access_token")
        // A document naming another issuer is not this provider's.
        #expect(throws: SignInFailure.self) { try metadata.check(configuredIssuer: "https://accounts.google.com") }
    }

    @Test func providersOnThisMachineMayUsePlainHTTP() throws {
        #expect(throws: Never.self) { try SignInProvider.parse("id=dev,name=Dev,issuer=http://127.0.0.1:9400,client-id=c,client-secret=x") { _ in "" } }
    }

    @Test func theLoginPageLearnsTheProviders() async throws {
        try await Self.withProviders { server in
            let response = try await server.send(.get, "/config.json")
            #expect(response.text == #"{"signIn":[{"id":"school","name":"School account","start":"/v1/oidc/school/start"}],"tiles":null}"#)
        }
    }

    @Test func providersNeedThePublicURL() async throws {
        await #expect(throws: ConfigurationError.self) {
            try await TestServer.run(configure: { $0.signInProviders = [Self.school] }) { _ in }
        }
    }

    /// Every failure goes back to the login page with a code it explains, and clears the state cookie.
    func expectSentBack(_ response: TestResponse, code: String, provider: String = "school", _ comment: Comment? = nil) {
        #expect(response.status == .seeOther, comment)
        #expect(response.headers[.location] == "https://map.example.org/?login-error=\(code)&provider=\(provider)#/login", comment)
        // Served over https: the sign-in cookie is `__Secure-`, the session's `__Host-`.
        let cookies = SessionCookies(secure: true)
        #expect(response.setCookieLine(cookies.pendingSignInName)?.contains("Max-Age=0") == true, comment)
        #expect(response.setCookies[cookies.sessionName] == nil && response.setCookies[SessionCookies.plainSessionName] == nil, comment)
    }

    @Test func callbacksThatCannotBeThisBrowsersLoginAreRefusedBeforeAnyProviderIsAsked() async throws {
        try await Self.withProviders { server in
            expectSentBack(try await server.send(.get, "/v1/oidc/nobody/start"), code: "unknown-provider", provider: "nobody")
            expectSentBack(try await server.send(.get, "/v1/oidc/school/callback?code=c"), code: "expired", "no state")
            expectSentBack(try await server.send(.get, "/v1/oidc/school/callback?code=c&state=s1"), code: "expired", "no state cookie")
            expectSentBack(try await server.send(.get, "/v1/oidc/school/callback?code=c&state=s1",
                                                 headers: [.cookie: "\(SessionCookies.plainPendingSignInName)=s2"]), code: "expired", "another login's cookie")
            expectSentBack(try await server.send(.get, "/v1/oidc/school/callback?code=c&state=s1",
                                                 headers: [.cookie: "\(SessionCookies.plainPendingSignInName)=s1"]), code: "expired", "a state never issued")
            expectSentBack(try await server.send(.get, "/v1/oidc/school/callback?error=access_denied"), code: "cancelled", "said no, state not sent back")
            expectSentBack(try await server.send(.get, "/v1/oidc/school/callback?error=server_error"), code: "provider-unavailable")
        }
    }

    @Test func withNoProviderAnOldLinkSaysSoOnTheLoginPage() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.get, "/v1/oidc/school/start")
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/?login-error=unknown-provider&provider=school#/login")
        }
    }

    /// An account made by a provider's sign-in has no password: no password logs in to it, the
    /// answer is the same as for a wrong one, and its profile says so as Udacity's did.
    @Test func anAccountWithoutAPasswordCannotLogInWithOne() async throws {
        try await TestServer.run { server in
            let account = Account(key: Identifiers.accountKey(), email: "nopass@example.edu", firstName: "Grace", lastName: "",
                                  passwordHash: Account.noPassword, isAdmin: false, createdAt: 1)
            try await server.store.insertAccount(account, linkedTo: ExternalIdentity(
                provider: "school", subject: "g", accountKey: account.key, email: account.email, linkedAt: 1))
            for password in ["!external", "correct horse"] {
                let login = try await server.send(.post, "/v1/session", body: #"{"udacity": {"username": "nopass@example.edu", "password": "\#(password)"}}"#)
                #expect(login.status == .forbidden)
                #expect(login.text.contains("Account not found or invalid credentials."))
            }
            let student = try await server.signUp()
            let profile = try JSONSerialization.jsonObject(with: try await server.send(.get, "/v1/users/\(account.key)", headers: student.bearerHeader).unprefixed()) as! [String: Any]
            #expect(profile["_has_password"] as? Bool == false)
            #expect(profile["nickname"] as? String == "Grace")
            let own = try JSONSerialization.jsonObject(with: try await server.send(.get, "/v1/users/\(student.key)", headers: student.bearerHeader).unprefixed()) as! [String: Any]
            #expect(own["_has_password"] as? Bool == true)
        }
    }
}
