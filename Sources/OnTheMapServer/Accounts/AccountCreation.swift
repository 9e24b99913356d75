import OnTheMapModel
import OnTheMapStore

/// How an account with a password comes to be: sign-up's road (`AccountService.signUp`), which
/// `onthemap user add` takes too, so both apply the same password rules and the same hash.
public enum AccountCreation {
    /// Adds an account for `onthemap user add`; `isAdmin` makes an admin of it.
    public static func add(
        _ request: SignUp, isAdmin: Bool, to accounts: any AccountStore, bcryptCost: UInt8 = AppConfiguration().bcryptCost
    ) async throws -> Account {
        try PasswordRules.check(request.password)
        let hasher = BcryptPasswordHasher(cost: bcryptCost)
        return try await create(request, isAdmin: isAdmin, in: accounts, clock: .system) { try await hasher.hash($0) }
    }

    /// The account made from a sign-up whose password passed `PasswordRules`, hashed by `hash`.
    static func create(
        _ request: SignUp, isAdmin: Bool, in accounts: any AccountStore, clock: WallClock, hash: @Sendable (String) async throws -> String
    ) async throws -> Account {
        let passwordHash = try await hash(request.password)
        return try await accounts.createAccount(
            email: request.email, firstName: request.firstName, lastName: request.lastName, passwordHash: passwordHash, isAdmin: isAdmin,
            createdAt: clock.nowMillis())
    }
}
