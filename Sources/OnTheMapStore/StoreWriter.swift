import OnTheMapModel
import SQLKit

/// One write: statements applied together or not at all, and how to read what they returned.
public struct WriteUnit<Result: Sendable>: Sendable {
    public let statements: [any SQLExpression]
    /// Reads the rows each statement returned (in order) into the caller's answer and the location
    /// changes to announce. It runs inside the write's transaction: throwing undoes the write.
    public let interpret: @Sendable (_ rows: [[any SQLRow]]) throws -> (result: Result, changes: [LocationChange.Kind])
    /// One statement that records its changes' events itself (`LocationWriteSQL`, PostgreSQL
    /// only): the writer runs it on its own, without a transaction block or events of its own, and
    /// `interpret` must then not throw once the statement has changed something.
    public let recordsItsEvents: Bool

    public init(
        _ statements: [any SQLExpression], recordsItsEvents: Bool = false,
        interpret: @escaping @Sendable (_ rows: [[any SQLRow]]) throws -> (result: Result, changes: [LocationChange.Kind])
    ) {
        precondition(!recordsItsEvents || statements.count == 1, "only one statement can record its own events")
        self.statements = statements
        self.recordsItsEvents = recordsItsEvents
        self.interpret = interpret
    }
}

/// Where every write goes. `perform` returns only once the transaction holding the write has
/// committed durably, and announces its changes on the engine's `LocationChangeFeed` before that.
public protocol StoreWriter: Sendable {
    func perform<Result: Sendable>(_ unit: WriteUnit<Result>) async throws -> Result
    /// Runs `body` with a writer that no other process migrating the same database can run beside:
    /// the schema's migrations go through it.
    func exclusively(_ body: @Sendable (any StoreWriter) async throws -> Void) async throws
}

extension StoreWriter {
    /// Runs one statement as a write that changes no location, returning its rows.
    @discardableResult
    func run(_ statement: any SQLExpression) async throws -> [any SQLRow] {
        try await perform(WriteUnit([statement]) { rows in (rows[0], []) })
    }
}
