import Foundation
import Logging
import OnTheMapModel
@testable import OnTheMapSQLite
@testable import OnTheMapStore

/// A fresh SQLite file in its own folder, removed afterwards; `open` can open it more than once, as
/// a second process would.
struct TemporaryDatabase {
    let path: String

    static func with(_ body: (TemporaryDatabase) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(TemporaryDatabase(path: directory.appendingPathComponent("store.sqlite").path))
    }

    func open(readBudget: Duration = .seconds(600)) async throws -> SQLiteDatabaseFile {
        var options = SQLiteDatabaseFile.Options()
        options.readBudget = readBudget
        var logger = Logger(label: "onthemap-store-test")
        logger.logLevel = .critical
        return try await SQLiteDatabaseFile.open(path: path, options: options, logger: logger)
    }
}

extension SQLStore {
    /// A new account with a unique email.
    func newAccount(_ name: String = "Student") async throws -> Account {
        try await createAccount(
            email: "\(name.lowercased())-\(UUID().uuidString.prefix(8))@example.com", firstName: name, lastName: "Test",
            passwordHash: "not-a-real-hash", isAdmin: false)
    }

    /// Saves a pin for `owner` at `place`.
    @discardableResult
    func pin(_ owner: Account, at place: String, now: Int64 = WallClock.nowMillis()) async throws -> StudentLocation {
        try await saveLocation(
            CompleteLocationFields(uniqueKey: owner.key, firstName: owner.firstName, lastName: owner.lastName,
                                   mapString: place, mediaURL: "https://example.com/\(owner.key)", latitude: 1, longitude: 2),
            ownerKey: owner.key, now: now)
    }
}
