/// Which reads may come from a standby (`--database-replicas`), and how fresh they must be: set by
/// the server around a request, read by an engine that has standbys (PostgreSQL); an engine
/// without any reads from its one database whatever these say.
public enum StandbyReads {
    /// Set around reads that another student's write may be a moment late in (the lists no cache
    /// holds). Anything else (sessions, accounts, the cached list, the event log) reads from the
    /// primary: what it answers must be the latest.
    @TaskLocal public static var allowed = false
    /// When the caller last wrote (wall clock, milliseconds), as far as this instance knows: a read
    /// of theirs goes to a standby only once it has replayed everything committed by then.
    @TaskLocal public static var writtenAt: Int64?
}
