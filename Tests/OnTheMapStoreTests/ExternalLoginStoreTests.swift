import Foundation
import OnTheMapModel
@testable import OnTheMapStore
import OnTheMapTestSupport
import Testing

/// Sign-in with a provider: what the database keeps between the redirect to a provider
/// and its return, and which provider identity is which account, on both engines.
@Suite struct ExternalLoginStoreTests {
    func pending(_ state: String, expiresAt: Int64 = 10_000) -> PendingExternalLogin {
        PendingExternalLogin(stateHash: "hash-\(state)", provider: "school", nonce: "n-\(state)", codeVerifier: "v-\(state)",
                             createdAt: 1_000, expiresAt: expiresAt)
    }

    @Test func aPendingLoginIsTakenOnceAndNotAfterItExpires() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            try await store.savePendingLogin(pending("a"))
            try await store.savePendingLogin(pending("b", expiresAt: 2_000))
            try await store.savePendingLogin(pending("c", expiresAt: 3_000))
            #expect(try await store.takePendingLogin(stateHash: "hash-a", now: 5_000) == pending("a"))
            #expect(try await store.takePendingLogin(stateHash: "hash-a", now: 5_000) == nil, "a state finishes one login")
            #expect(try await store.takePendingLogin(stateHash: "hash-b", now: 5_000) == nil, "expired")
            #expect(try await store.takePendingLogin(stateHash: "unknown", now: 5_000) == nil)
            #expect(try await store.deleteExpiredPendingLogins(now: 5_000) == 1, "c; b went when it was asked for")
            try await database.close()
        }
    }

    /// Two callbacks with one state at once, on two instances: one login gets it.
    @Test func twoInstancesTakingOneStateAtOnceGetItOnce() async throws {
        try await TestDatabase.withFresh { temporary in
            let instances = [try await temporary.open(), try await temporary.open()]
            try await instances[0].store.savePendingLogin(pending("raced"))
            let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<8 {
                    let store = instances[attempt % 2].store
                    group.addTask { try await store.takePendingLogin(stateHash: "hash-raced", now: 5_000) != nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(taken == 1)
            for instance in instances { try await instance.close() }
        }
    }

    @Test func identitiesLinkToOneAccountAndGoWithIt() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let student = try await store.newAccount("Linked")
            let other = try await store.newAccount("Other")
            let identity = ExternalIdentity(provider: "school", subject: "s-1", accountKey: student.key, email: student.email, linkedAt: 7)
            try await store.link(identity)
            // Linking again, even to another account, keeps the first link: a subject is one person.
            try await store.link(ExternalIdentity(provider: "school", subject: "s-1", accountKey: other.key, email: other.email, linkedAt: 8))
            try await store.link(ExternalIdentity(provider: "gitlab", subject: "s-1", accountKey: student.key, email: student.email, linkedAt: 9))
            #expect(try await store.account(provider: "school", subject: "s-1")?.key == student.key)
            #expect(try await store.account(provider: "gitlab", subject: "s-1")?.key == student.key)
            #expect(try await store.account(provider: "school", subject: "s-2") == nil)
            #expect(try await store.identities(accountKey: student.key).map(\.provider) == ["school", "gitlab"])
            #expect(try await store.identities(accountKey: other.key).isEmpty)
            #expect(try await store.deleteAccount(key: student.key))
            #expect(try await store.account(provider: "school", subject: "s-1") == nil, "the link goes with the account")
            try await database.close()
        }
    }

    /// An account made by a sign-in is made with its link, or not at all.
    @Test func anAccountMadeBySignInComesWithItsLinkOrNotAtAll() async throws {
        try await TestDatabase.withFresh { temporary in
            let database = try await temporary.open()
            let store = database.store
            let made = Account(key: Identifiers.accountKey(), email: "new@example.com", firstName: "New", lastName: "",
                               passwordHash: Account.noPassword, isAdmin: false, createdAt: 5)
            try await store.insertAccount(made, linkedTo: ExternalIdentity(provider: "school", subject: "new", accountKey: made.key, email: made.email, linkedAt: 5))
            #expect(try await store.account(provider: "school", subject: "new") == made)
            #expect(try await store.account(email: "new@example.com")?.hasPassword == false)
            // The same email again: refused, and no link is left behind for the second subject.
            let clash = Account(key: Identifiers.accountKey(), email: "new@example.com", firstName: "Clash", lastName: "",
                                passwordHash: Account.noPassword, isAdmin: false, createdAt: 6)
            await #expect(throws: StoreError.emailTaken) {
                try await store.insertAccount(clash, linkedTo: ExternalIdentity(provider: "school", subject: "clash", accountKey: clash.key, email: clash.email, linkedAt: 6))
            }
            #expect(try await store.account(provider: "school", subject: "clash") == nil)
            #expect(try await store.account(key: clash.key) == nil)
            try await database.close()
        }
    }
}
