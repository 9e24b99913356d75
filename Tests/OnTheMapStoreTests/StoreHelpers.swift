import SQLKit
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
    /// A second course beside the default one, made as the course API will make it: a row of its own.
    func newCourse(_ slug: String) async throws -> CourseID {
        let rows = try await writer.run(SQLQueryString(
            "INSERT INTO courses (slug, title, created_at) VALUES (\(bind: slug), \(bind: slug.uppercased()), 0) RETURNING id"))
        return CourseID(rawValue: try rows[0].decode(column: "id", as: Int64.self))
    }

    @discardableResult
    func pin(
        _ owner: Account, at place: String, in course: CourseID = .default, now: Int64 = WallClock.system.nowMillis(), held: Bool = false
    ) async throws -> StudentLocation {
        try await saveLocation(
            CompleteLocationFields(uniqueKey: owner.key, firstName: owner.firstName, lastName: owner.lastName,
                                   mapString: place, mediaURL: "https://example.com/\(owner.key)", latitude: 1, longitude: 2),
            ownerKey: owner.key, in: course, now: now, heldForApproval: held)
    }
}
