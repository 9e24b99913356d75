import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OnTheMapStore
import PostgresNIO
import _ConnectionPoolModule

/// How the engine meets a database that is down, restarting or unreachable: a request gets a
/// connection within `leaseDeadline` or fails at once, and the failures that mean "the database
/// cannot be used right now" become `StoreError.unavailable` (a 503 with `Retry-After`) rather than
/// an internal error. PostgresClient itself keeps a request waiting for as long as it cannot
/// connect, which would hang every request until the database came back.
enum PostgresAvailability {
    /// Runs `body` on a connection of `client`, failing with `StoreError.unavailable` when none is
    /// had within `deadline`, or when `body` has not finished `runDeadline` after it had one. The caller
    /// is answered then without waiting for the pool to take the request back (while it cannot
    /// connect, that can take as long as the outage); a connection that arrives after the deadline
    /// is handed straight back, and one whose work outlives its time is closed: a query sent just as
    /// PostgreSQL shuts down can otherwise wait on it for good (seen here), holding the connection.
    /// `attempts` says why the pool could not connect, for the reason given when none came in time.
    static func withConnection<T: Sendable>(
        from client: PostgresClient, within deadline: Duration, runningWithin runDeadline: Duration? = nil, attempts: ConnectionAttempts? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let runDeadline = runDeadline ?? deadline
        let race = NIOLockedValueBox(LeaseRace<T>())
        // Asked when giving up: the pool's last failed attempt may be newer than the request.
        let gaveUp: @Sendable () -> StoreError = { StoreError.unavailable(reason: "no database connection within \(deadline)\(attempts?.lastFailureDescription ?? "")") }
        // The deadlines are timers of an event loop, not sleeping tasks: every read and write
        // passes here, and a task with a clock of its own per call cost a measurable share of a read.
        let timers = MultiThreadedEventLoopGroup.singleton.any()
        /// The work has a connection (or not) when `deadline` passes: it gets `runDeadline` from when it had it.
        @Sendable func leaseDeadlinePassed() {
            if let waiting = race.withLockedValue({ $0.giveUp() }) {
                race.withLockedValue { $0.work }?.cancel()
                waiting.resume(throwing: gaveUp())
                return
            }
            guard let leasedAt = race.withLockedValue({ $0.leasedAt }) else { return }
            let scheduled = timers.scheduleTask(deadline: .now() + TimeAmount(leasedAt + runDeadline - .now)) {
                if let (waiting, connection) = race.withLockedValue({ $0.abandon() }) {
                    waiting.resume(throwing: StoreError.unavailable(reason: "the database did not answer within \(runDeadline)"))
                    let _: EventLoopFuture<Void> = connection.close()
                }
            }
            // The work may have finished while this timer was made.
            race.withLockedValue { race in
                if race.isAnswered { scheduled.cancel() } else { race.timer = scheduled }
            }
        }
        return try await translatingFailures {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    race.withLockedValue { $0.continuation = continuation }
                    let work = Task {
                        do {
                            let value = try await client.withConnection { connection in
                                attempts?.connected()
                                guard race.withLockedValue({ $0.lease(connection) }) else { throw gaveUp() }
                                return try await body(connection)
                            }
                            race.withLockedValue { $0.finish() }?.resume(returning: value)
                        } catch {
                            race.withLockedValue { $0.finish() }?.resume(throwing: error)
                        }
                    }
                    let timer = timers.scheduleTask(in: TimeAmount(deadline)) { leaseDeadlinePassed() }
                    race.withLockedValue { race in
                        race.work = work
                        race.timer = timer
                        // The work may have finished already, before there was a timer to cancel.
                        if race.isAnswered { timer.cancel() }
                    }
                }
            } onCancel: {
                race.withLockedValue { $0.work }?.cancel()
            }
        }
    }

    /// Who answers the caller: the work, or the timer when the work has no connection in time or
    /// does not finish in time, whichever is first.
    private struct LeaseRace<T: Sendable> {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        /// Cancelled when the work finishes.
        var timer: Scheduled<Void>?
        private var connection: PostgresConnection?
        private(set) var leasedAt: ContinuousClock.Instant?

        /// The work has `connection`: false when the caller has been answered already.
        mutating func lease(_ connection: PostgresConnection) -> Bool {
            guard continuation != nil else { return false }
            self.connection = connection
            leasedAt = .now
            return true
        }

        /// The continuation to answer with the work's outcome, unless the timer answered first.
        mutating func finish() -> CheckedContinuation<T, any Error>? {
            timer?.cancel()
            return take()
        }

        /// The continuation to answer with "unavailable", unless the work has a connection.
        mutating func giveUp() -> CheckedContinuation<T, any Error>? { connection == nil ? take() : nil }

        /// The continuation to answer with "unavailable" and the connection to close, when the work
        /// has still not finished.
        mutating func abandon() -> (CheckedContinuation<T, any Error>, PostgresConnection)? {
            guard let connection, let waiting = take() else { return nil }
            return (waiting, connection)
        }

        var isAnswered: Bool { continuation == nil }

        private mutating func take() -> CheckedContinuation<T, any Error>? {
            defer { continuation = nil }
            return continuation
        }
    }

    /// Runs `body`, turning the failures that mean the database cannot be used right now into
    /// `StoreError.unavailable`.
    static func translatingFailures<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            if let reason = unavailability(of: error) { throw StoreError.unavailable(reason: reason) }
            throw error
        }
    }

    /// Why `error` means the database cannot be used right now, or nil when it means something else.
    static func unavailability(of error: any Error) -> String? {
        switch error {
        case let error as PostgresTransactionError:
            return [error.beginError, error.closureError, error.commitError].lazy.compactMap { $0 }.compactMap(unavailability(of:)).first
        case let error as PSQLError:
            switch error.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed:
                return "the connection to PostgreSQL failed (\(error.code))"
            case .unexpectedBackendMessage where String(reflecting: error).contains(#"Severity: "FATAL""#):
                // A FATAL error out of turn ends the session: PgBouncer says "server conn
                // crashed?" (08P01) so when the PostgreSQL behind it goes away mid-transaction.
                let words = String(reflecting: error)
                let message = words.firstMatch(of: /Message: "([^"]*)"/).map { String($0.output.1) } ?? "FATAL"
                return "the connection to PostgreSQL ended (\(message))"
            case .server:
                // Connection exceptions (08), operator intervention such as a shutdown or a
                // cluster still starting (57P), insufficient resources such as a full disk (53),
                // and a write refused as read-only (25006): the host is a standby now, after a
                // failover or a switchover, and the primary is elsewhere (`PostgresPrimary`).
                guard let state = error.serverInfo?[.sqlState],
                      state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53") || state == "25006" else { return nil }
                return "PostgreSQL answered \(state): \(error.serverInfo?[.message] ?? "")"
            default:
                return nil
            }
        case let error as ConnectionPoolError where error == .poolShutdown:
            // The pools of a host the primary has left, retired: the request meets the move.
            return "the connection pool closed, as when the primary moves to another host"
        case let error as ConnectionPoolError where error == .connectionCreationCircuitBreakerTripped:
            return "the database has not taken a connection for a while"
        default:
            return nil
        }
    }
}
