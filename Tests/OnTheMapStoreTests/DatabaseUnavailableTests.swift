import Foundation
import GRDB
@testable import OnTheMapSQLite
import OnTheMapStore
import Testing

/// The SQLite failures that mean the file cannot be used right now (a full disk, a
/// read-only file system) are `StoreError.unavailable`, which the server answers 503 with
/// `Retry-After`; anything else stays what it was. scripts/test/fault-test.sh fills a real disk and
/// turns a real file system read-only.
@Suite struct DatabaseUnavailableTests {
    static let path = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap.sqlite").path

    @Test(arguments: [ResultCode.SQLITE_FULL, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_CANTOPEN])
    func aFileThatCannotBeUsedIsUnavailable(code: ResultCode) {
        let translated = SQLiteAvailability.translated(DatabaseError(resultCode: code), databasePath: Self.path)
        guard case StoreError.unavailable(let reason)? = translated as? StoreError else {
            Issue.record("\(code) became \(translated)")
            return
        }
        #expect(reason.contains("SQLite"))
    }

    /// On a writable disk with room, an I/O error stays an I/O error: the file system is not blamed.
    @Test func aWritableFileSystemIsNotCalledReadOnlyOrFull() {
        #expect(FileSystemState.of(directoryOf: Self.path) == .writable)
        #expect(FileSystemState.of(directoryOf: "/no/such/directory/onthemap.sqlite") == .unknown)
        let translated = SQLiteAvailability.translated(DatabaseError(resultCode: .SQLITE_IOERR), databasePath: Self.path)
        guard case StoreError.unavailable(let reason)? = translated as? StoreError else {
            Issue.record("an I/O error became \(translated)")
            return
        }
        #expect(reason.hasPrefix("an I/O error"))
    }

    @Test func otherFailuresStayWhatTheyAre() {
        let constraint = DatabaseError(resultCode: .SQLITE_CONSTRAINT)
        #expect((SQLiteAvailability.translated(constraint, databasePath: Self.path) as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT)
        #expect(SQLiteAvailability.translated(StoreError.busy, databasePath: Self.path) as? StoreError == .busy)
    }
}
