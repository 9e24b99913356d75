/// An open database as the server sees it, whichever engine is behind it: the store, a way to
/// notice writes made by other processes, and closing.
public protocol DatabaseEngine: Sendable {
    var store: SQLStore { get }
    /// Runs until cancelled, announcing on `store.changes` (as `.unknown`) each time another process
    /// has committed a write, checked every `interval`.
    func watchExternalWrites(every interval: Duration) async throws
    /// Answers the writes still waiting, then closes every connection.
    func close() async throws
}
