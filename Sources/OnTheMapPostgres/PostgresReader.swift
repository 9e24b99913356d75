import Logging
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

    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        do {
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
}
