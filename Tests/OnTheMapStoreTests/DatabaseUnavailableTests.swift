import GRDB
@testable import OnTheMapSQLite
import OnTheMapStore
import Testing

/// Issue 26: the SQLite failures that mean the file cannot be used right now (a full disk, a
/// read-only file system) are `StoreError.unavailable`, which the server answers 503 with
/// `Retry-After`; anything else stays what it was. scripts/fault-test.sh fills a real disk.
@Suite struct DatabaseUnavailableTests {
    @Test(arguments: [ResultCode.SQLITE_FULL, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_CANTOPEN])
    func aFileThatCannotBeUsedIsUnavailable(code: ResultCode) {
        let translated = SQLiteAvailability.translated(DatabaseError(resultCode: code))
        guard case StoreError.unavailable(let reason)? = translated as? StoreError else {
            Issue.record("\(code) became \(translated)")
            return
        }
        #expect(reason.contains("SQLite"))
    }

    @Test func otherFailuresStayWhatTheyAre() {
        let constraint = DatabaseError(resultCode: .SQLITE_CONSTRAINT)
        #expect((SQLiteAvailability.translated(constraint) as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT)
        #expect(SQLiteAvailability.translated(StoreError.busy) as? StoreError == .busy)
    }
}
