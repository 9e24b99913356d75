/// An open database as the server sees it, whichever engine is behind it: the store, a way to
/// notice writes made by other processes, and closing.
public protocol DatabaseEngine: Sendable {
    var store: SQLStore { get }
    /// True when other server instances may share the database (PostgreSQL): what they must count
    /// together (rate limits) is then kept in the database rather than in memory.
    var servesManyInstances: Bool { get }
    /// Runs until cancelled, announcing on `store.changes` (as `.unknown`) each time another process
    /// has committed a write, checked every `interval`.
    func watchExternalWrites(every interval: Duration) async throws
    /// Answers the writes still waiting, then closes every connection.
    func close() async throws
}
