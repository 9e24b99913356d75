#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import OnTheMapStore

/// The SQLite failures that mean the file cannot be used right now, as `StoreError.unavailable`
/// (a 503 with `Retry-After`) rather than an internal error: a full disk, a file system that
/// became read-only, an I/O error, a file that cannot be opened. They pass when the operator
/// mends the disk; the transaction that met one was rolled back, so nothing half-written stays.
enum SQLiteAvailability {
    /// `databasePath` lets the reason name what is wrong with the file system: SQLite reports a
    /// write refused by a file system that went read-only after a disk error (ext4's
    /// `errors=remount-ro`) as a plain "disk I/O error", which would send the operator looking
    /// at the wrong thing.
    static func translated(_ error: any Error, databasePath: String) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        let reason: String? = switch error.resultCode {
        case .SQLITE_FULL: "the disk holding the database is full"
        case .SQLITE_READONLY, .SQLITE_IOERR:
            switch FileSystemState.of(directoryOf: databasePath) {
            case .readOnly: "the file system holding the database is read-only (remounted read-only after a disk error?)"
            case .full: "the disk holding the database is full"
            case .writable where error.resultCode == .SQLITE_READONLY: "the database file cannot be written (its permissions?)"
            case .writable, .unknown: "an I/O error on the database file"
            }
        case .SQLITE_CANTOPEN: "the database file cannot be opened"
        default: nil
        }
        guard let reason else { return error }
        return StoreError.unavailable(reason: "\(reason) (SQLite: \(error.message ?? "\(error.resultCode)"))")
    }
}

/// What the file system a path is on can take, asked only once a write has failed.
enum FileSystemState: Equatable {
    case readOnly, full, writable, unknown

    static func of(directoryOf path: String) -> FileSystemState {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var status = statvfs()
        guard statvfs(directory, &status) == 0 else { return .unknown }
        if status.f_flag & UInt(ST_RDONLY) != 0 { return .readOnly }
        // ext4 after a disk error (kernel 6.x's "emergency_ro") refuses writes with EROFS while the
        // mount still reads as read-write, so only a write tells: an empty file made and removed.
        let probe = "\(directory)/.onthemap-write-probe-\(getpid())"
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            unlink(probe)
        } else if errno == EROFS {
            return .readOnly
        }
        return status.f_bavail == 0 ? .full : .writable
    }
}
