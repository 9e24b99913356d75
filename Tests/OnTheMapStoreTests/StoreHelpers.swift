import Foundation
import OnTheMapModel
@testable import OnTheMapStore

extension SQLStore {
    /// A new account with a unique email.
    func newAccount(_ name: String = "Student") async throws -> Account {
        try await createAccount(
            email: "\(name.lowercased())-\(UUID().uuidString.prefix(8))@example.com", firstName: name, lastName: "Test",
            passwordHash: "not-a-real-hash", isAdmin: false)
    }

    /// Saves a pin for `owner` at `place`.
    @discardableResult
    func pin(
        _ owner: Account, at place: String, in course: CourseID = .default, now: Int64 = WallClock.system.nowMillis()
    ) async throws -> StudentLocation {
        try await saveLocation(
            CompleteLocationFields(uniqueKey: owner.key, firstName: owner.firstName, lastName: owner.lastName,
                                   mapString: place, mediaURL: "https://example.com/\(owner.key)", latitude: 1, longitude: 2),
            ownerKey: owner.key, in: course, now: now)
    }
}
