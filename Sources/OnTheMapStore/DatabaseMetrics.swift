import Metrics

/// Whether anything records metrics. Off by default: then no metric is even built, so the hot
/// paths (the cached list answers tens of thousands of requests a second) pay nothing for them.
public enum MetricsRecording {
    /// Written once, by `PrometheusExposition.bootstrap()`, before the server starts any task.
    nonisolated(unsafe) public private(set) static var isOn = false

    public static func turnOn() {
        isOn = true
    }
}

/// What an engine tells `/metrics` about its database work (through swift-metrics: nothing is kept
/// unless the process started a metrics backend, `serve --metrics-address`). Waits show a pool too
/// small for the load; query times show a slow disk or a missing index; writes per commit show
/// how much SQLite's group commit saves.
public struct DatabaseMetrics: Sendable {
    public enum Role: String, Sendable {
        /// The pool of read connections.
        case read
        /// The writer (SQLite's one connection) or the pool of write connections (PostgreSQL).
        case write
        /// A read a standby answered (PostgreSQL with `--database-replicas`).
        case standby
    }

    public static let waitLabel = "onthemap_db_connection_wait_seconds"
    public static let queryLabel = "onthemap_db_query_seconds"
    public static let writesPerCommitLabel = "onthemap_db_writes_per_commit"

    public static let sqlite = DatabaseMetrics(engine: "sqlite")
    public static let postgresql = DatabaseMetrics(engine: "postgresql")

    let engine: String

    /// How long a read or a write waited for a connection (for SQLite's writer: for its batch).
    public func waited(_ duration: Duration, role: Role) {
        guard MetricsRecording.isOn else { return }
        Timer(label: Self.waitLabel, dimensions: [("engine", engine), ("role", role.rawValue)]).record(duration: duration)
    }

    /// How long a read's statement, or a write's whole transaction, held its connection.
    public func ran(_ duration: Duration, role: Role) {
        guard MetricsRecording.isOn else { return }
        Timer(label: Self.queryLabel, dimensions: [("engine", engine), ("role", role.rawValue)]).record(duration: duration)
    }

    /// One transaction committed `writes` writes.
    public func committed(writes: Int) {
        guard MetricsRecording.isOn else { return }
        Recorder(label: Self.writesPerCommitLabel, dimensions: [("engine", engine)], aggregate: true).record(writes)
    }

    /// Times `body` from the moment `asked` for a connection: the wait until `body` starts (it is
    /// handed its connection then), and the time `body` runs.
    public func measure<T>(role: Role, since asked: ContinuousClock.Instant, _ body: () throws -> T) rethrows -> T {
        guard MetricsRecording.isOn else { return try body() }
        let started = ContinuousClock.now
        waited(started - asked, role: role)
        defer { ran(ContinuousClock.now - started, role: role) }
        return try body()
    }

    /// `measure` for asynchronous work.
    public func measure<T>(role: Role, since asked: ContinuousClock.Instant, _ body: () async throws -> sending T) async rethrows -> sending T {
        guard MetricsRecording.isOn else { return try await body() }
        let started = ContinuousClock.now
        waited(started - asked, role: role)
        defer { ran(ContinuousClock.now - started, role: role) }
        return try await body()
    }
}
