import Logging
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapStore
import PostgresKit
import PostgresNIO
import SQLKit

/// Reads on a pool of its own, so that they never wait behind writes for a connection. Every
/// connection of the pool starts with `statement_timeout` set to the read budget: a read that runs
/// longer is cancelled by the server itself and answered `StoreError.readTimedOut`.
struct PostgresReader: SQLDatabase {
    let primary: PostgresPrimary
    /// How long a read waits for a connection before it is answered 503.
    let leaseDeadline: Duration
    /// How long PostgreSQL lets a read run.
    let budget: Duration
    /// False through a pooler in transaction mode, where a statement prepared on one server
    /// connection is not there on the next (PgBouncer before 1.21).
    let prepares: Bool
    let logger: Logger
    let eventLoop: any EventLoop
    /// Why the pool last failed to connect, for a read that got no connection.
    var attempts: ConnectionAttempts?
    /// The standbys reads may go to (`--database-replicas`), when there are any.
    var standbys: PostgresStandbys?

    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        do {
            if try await onStandby(query, onRow) { return }
            let asked = ContinuousClock.now
            // PostgreSQL stops a read at the budget (statement_timeout): a read still unanswered a
            // lease deadline after that is on a connection the database has dropped.
            try await primary.withConnection(\.readers, within: leaseDeadline, runningWithin: budget + leaseDeadline, attempts: attempts) {
                [self] connection in
                try await DatabaseMetrics.postgresql.measure(role: .read, since: asked) {
                    try await connection.run(query, in: self, prepared: prepares, logger: logger, onRow)
                }
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == PostgresError.Code.queryCanceled.raw {
            throw StoreError.readTimedOut
        }
    }

    /// Runs a read the caller allows a standby to answer (`StandbyReads`) on one that qualifies;
    /// false when none does, or when the one chosen failed before its first row (it is taken out
    /// of rotation, and the primary answers instead).
    private func onStandby(_ query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws -> Bool {
        guard StandbyReads.allowed, let standbys, let (endpoint, pool) = standbys.pool(forCallerWhoWroteAt: StandbyReads.writtenAt) else {
            return false
        }
        let delivered = NIOLockedValueBox(false)
        let asked = ContinuousClock.now
        do {
            try await PostgresAvailability.withConnection(from: pool, within: leaseDeadline, runningWithin: budget + leaseDeadline) { [self] connection in
                try await DatabaseMetrics.postgresql.measure(role: .standby, since: asked) {
                    try await connection.run(query, in: self, prepared: prepares, logger: logger) { row in
                        delivered.withLockedValue { $0 = true }
                        onRow(row)
                    }
                }
            }
            return true
        } catch {
            guard let reason = PostgresAvailability.unavailability(of: error) ?? (error as? StoreError).map({ "\($0)" }),
                  !delivered.withLockedValue({ $0 }) else { throw error }
            standbys.failed(endpoint, because: reason)
            return false
        }
    }
}
