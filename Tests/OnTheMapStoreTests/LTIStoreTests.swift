import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// LTI 1.3's data (migration 18) as the store keeps it, on both engines: a platform registered
/// once per issuer and client id with its deployments, removed with them and its course links; the
/// tool's first key made once however many instances ask, a rotation retiring the key that signed
/// and dropping keys retired long ago; a platform course linked to one course, the first link kept.
@Suite struct LTIStoreTests {
    static func canvas(_ clientID: String = "10000000000001", deployments: [String] = ["1:abc"]) -> LTIPlatform {
        LTIPlatform(
            issuer: "https://canvas.instructure.com", clientID: clientID, name: "Canvas", authorizationURL: "https://sso.canvaslms.com/api/lti/authorize_redirect",
            jwksURL: "https://sso.canvaslms.com/api/lti/security/jwks", tokenURL: "https://sso.canvaslms.com/login/oauth2/token",
            deploymentIDs: deployments, createdAt: 1_000)
    }

    @Test func aPlatformIsRegisteredOnceWithItsDeploymentsAndRemovedWithThem() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let added = try await store.addPlatform(Self.canvas(deployments: ["2:def", "1:abc"]))
            #expect(added.id > 0)
            #expect(try await store.platform(id: added.id)?.deploymentIDs == ["1:abc", "2:def"])
            #expect(try await store.platform(issuer: "https://canvas.instructure.com", clientID: "10000000000001")?.id == added.id)
            #expect(try await store.platform(issuer: "https://canvas.instructure.com", clientID: "other") == nil)
            await #expect(throws: StoreError.keyTaken) { try await store.addPlatform(Self.canvas()) }
            #expect(try await store.platforms().count == 1, "the refused registration left nothing")
            let another = try await store.addPlatform(Self.canvas("20000000000002"))
            #expect(try await store.platforms().map(\.id) == [added.id, another.id])

            #expect(try await store.addDeployment("3:ghi", toPlatform: added.id))
            #expect(try await !store.addDeployment("3:ghi", toPlatform: added.id))
            let course = try await store.newCourse("cs101")
            #expect(try await store.link(platform: added.id, context: "ctx-1", to: course))
            #expect(try await !store.link(platform: added.id, context: "ctx-1", to: .default), "the first link stays")
            #expect(try await store.course(platform: added.id, context: "ctx-1") == course)
            #expect(try await store.course(platform: another.id, context: "ctx-1") == nil)

            #expect(try await store.removePlatform(id: added.id))
            #expect(try await !store.removePlatform(id: added.id))
            #expect(try await store.course(platform: added.id, context: "ctx-1") == nil)
            #expect(try await store.course(id: course) != nil, "the course stays")
            #expect(try await store.platforms().map(\.id) == [another.id])
            try await database.close()
        }
    }

    @Test func theFirstToolKeyIsMadeOnceAndARotationRetiresTheOneThatSigned() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let first = try await store.addFirstToolKey(LTIToolKey(kid: "a", sealedPrivateKey: "sealed-a", createdAt: 1_000))
            let again = try await store.addFirstToolKey(LTIToolKey(kid: "b", sealedPrivateKey: "sealed-b", createdAt: 1_001))
            #expect(first.map(\.kid) == ["a"] && again.map(\.kid) == ["a"], "a second instance finds the first's key")

            try await store.rotateToolKey(to: LTIToolKey(kid: "c", sealedPrivateKey: "sealed-c", createdAt: 5_000), dropRetiredBefore: 0)
            var keys = try await store.toolKeys()
            #expect(keys.map(\.kid) == ["c", "a"])
            #expect(keys.map(\.retiredAt) == [nil, 5_000])
            try await store.rotateToolKey(to: LTIToolKey(kid: "d", sealedPrivateKey: "sealed-d", createdAt: 9_000), dropRetiredBefore: 6_000)
            keys = try await store.toolKeys()
            #expect(keys.map(\.kid) == ["d", "c"], "a retired before the bound is dropped")
            #expect(keys.map(\.retiredAt) == [nil, 9_000])
            try await database.close()
        }
    }
}
