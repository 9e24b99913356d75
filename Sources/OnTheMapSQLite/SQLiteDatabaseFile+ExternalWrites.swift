import GRDB
import OnTheMapStore

extension SQLiteDatabaseFile: DatabaseEngine {
    /// One server per file (the CLI may write beside it).
    public var servesManyInstances: Bool { false }

    /// `PRAGMA data_version` on the writer connection changes only when another connection (another
    /// process: the CLI, a second server) commits, never for this process's own writes, which the
    /// writer announces itself. Reading it costs microseconds, so polling is cheap.
    public func watchExternalWrites(every interval: Duration) async throws {
        var seen = try await dataVersion()
        while true {
            try await Task.sleep(for: interval)
            let current = try await dataVersion()
            if current != seen {
                seen = current
                store.changes.publish([.unknown])
            }
        }
    }

    private func dataVersion() async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }
}
