import GRDB
import OnTheMapStore

/// The SQLite failures that mean the file cannot be used right now, as `StoreError.unavailable`
/// (a 503 with `Retry-After`) rather than an internal error: a full disk, a file system that
/// became read-only, an I/O error, a file that cannot be opened. They pass when the operator
/// mends the disk; the transaction that met one was rolled back, so nothing half-written stays.
enum SQLiteAvailability {
    static func translated(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        let reason: String? = switch error.resultCode {
        case .SQLITE_FULL: "the disk holding the database is full"
        case .SQLITE_READONLY: "the database file cannot be written (a read-only file system or file)"
        case .SQLITE_IOERR: "an I/O error on the database file"
        case .SQLITE_CANTOPEN: "the database file cannot be opened"
        default: nil
        }
        guard let reason else { return error }
        return StoreError.unavailable(reason: "\(reason) (SQLite: \(error.message ?? "\(error.resultCode)"))")
    }
}
