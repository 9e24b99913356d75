import Logging
import OnTheMapStore
import PostgresKit
import PostgresNIO
import SQLKit

/// A SQLKit expression made ready for PostgresNIO: its SQL and its values bound in PostgreSQL's
/// binary format. PostgresKit's own road encodes every value through a generic `Encodable` path and
/// reads every column by name through another; for a page of locations those cost more than
/// PostgreSQL's own work, so the store's statements take this road instead.
struct PostgresStatement: Sendable {
    let query: PostgresQuery
    /// No value is NULL, whose type only the statement's context says: see `PreparedStatements`.
    private let preparable: Bool

    /// Nil when a value is of a type the store never binds: the caller then takes PostgresKit's road.
    init?(_ expression: any SQLExpression, in database: any SQLDatabase) {
        var serializer = SQLSerializer(database: database)
        expression.serialize(to: &serializer)
        var bindings = PostgresBindings(capacity: serializer.binds.count)
        var preparable = true
        for value in serializer.binds {
            guard let isNull = Self.bind(value, to: &bindings) else { return nil }
            preparable = preparable && !isNull
        }
        query = PostgresQuery(unsafeSQL: serializer.sql, binds: bindings)
        self.preparable = preparable
    }

    /// Appends the values the store binds (text, integers, doubles, booleans and nil) and says
    /// whether it was NULL; nil for a value of any other type.
    private static func bind(_ value: any Encodable, to bindings: inout PostgresBindings) -> Bool? {
        switch value {
        case let string as String: bindings.append(string)
        case let integer as Int: bindings.append(integer)
        case let integer as Int64: bindings.append(integer)
        case let double as Double: bindings.append(double)
        case let bool as Bool: bindings.append(bool)
        case let optional as any OptionalBind:
            guard let wrapped = optional.wrapped else {
                bindings.appendNull()
                return true
            }
            return bind(wrapped, to: &bindings)
        default: return nil
        }
        return false
    }

    /// Runs it on `connection`, handing each row to `onRow` as a `PostgresReadRow`; prepared
    /// once it repeats when `prepared` (outside a transaction block), see `PreparedStatements`.
    func run(on connection: PostgresConnection, prepared: Bool, logger: Logger, _ onRow: @Sendable (any SQLRow) -> Void) async throws {
        let sql = query.sql
        guard prepared, preparable, let name = PreparedStatements.shared.name(for: sql) else {
            return try await Self.deliver(connection.query(query, logger: logger), to: onRow)
        }
        let rows: AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>
        do {
            rows = try await StoreStatement.$running.withValue((name, sql)) {
                try await connection.execute(StoreStatement(bindings: query.binds), logger: logger)
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] != nil && error.serverInfo?[.sqlState] != "57014" {
            // PostgreSQL refused the statement before any row. That may be the prepared form's
            // fault: a plan the schema has outgrown, a name the server lost (a pooler), or a
            // preparation that failed once, whose error PostgresNIO then answers for good on
            // this connection. A refused statement ran nothing (it is a read, or a write that is
            // its own transaction), so run it unnamed: if that works, the prepared form was at
            // fault and the statement goes unnamed from now on; if not, it was the statement's.
            // (A read stopped by its time budget, 57014, is not run twice.)
            try await Self.deliver(connection.query(query, logger: logger), to: onRow)
            PreparedStatements.shared.refuse(sql)
            return
        }
        try await Self.deliver(rows, to: onRow)
    }

    /// Hands each row to `onRow` as a `PostgresReadRow`, the columns read once per result.
    private static func deliver(_ rows: some AsyncSequence<PostgresRow, any Error>, to onRow: @Sendable (any SQLRow) -> Void) async throws {
        var columns: PostgresResultColumns?
        for try await row in rows {
            let shared = columns ?? PostgresResultColumns(of: row)
            columns = shared
            onRow(PostgresReadRow(row, columns: shared))
        }
    }
}

extension PostgresConnection {
    /// Runs a SQLKit expression on this connection: on `PostgresStatement`'s road when it can,
    /// otherwise on PostgresKit's.
    /// `prepared`: the statement is its own unit of work (not inside BEGIN … COMMIT), so it may be
    /// prepared once it repeats.
    func run(
        _ expression: any SQLExpression, in database: any SQLDatabase, prepared: Bool = false, logger: Logger,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) async throws {
        if let statement = PostgresStatement(expression, in: database) {
            try await statement.run(on: self, prepared: prepared, logger: logger, onRow)
        } else {
            try await sql(queryLogLevel: nil).execute(sql: expression, onRow)
        }
    }
}

/// `Optional<Wrapped>` as a bound value: its value, or nil.
private protocol OptionalBind {
    var wrapped: (any Encodable)? { get }
}

extension Optional: OptionalBind where Wrapped: Encodable {
    var wrapped: (any Encodable)? { map { $0 } }
}
