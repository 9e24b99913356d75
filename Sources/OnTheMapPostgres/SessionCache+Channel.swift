import Logging
import OnTheMapStore

extension SessionCache {
    /// A cache whose changes are told to the other instances on `channel`: a notification sent on
    /// a writers' connection once the change has committed, waited for at most `deadline` (the
    /// change stands either way; other instances then drop the sessions within
    /// `SessionCache.lifetime`).
    static func announcing(on channel: ChangeChannel, primary: PostgresPrimary, within deadline: Duration, logger: Logger) -> SessionCache {
        SessionCache { accounts in
            let sending = Task {
                do {
                    _ = try await primary.withConnection(\.writers, within: deadline) { connection in
                        try await connection.query(channel.sessionsNotifyQuery(accounts: accounts), logger: logger)
                    }
                } catch {
                    logger.warning("Could not tell the other instances that sessions changed: \(error)")
                }
            }
            if await !BoundedWait.finishes(sending, within: deadline) {
                logger.warning("Telling the other instances that sessions changed took over \(deadline); going on without it")
            }
        }
    }
}
