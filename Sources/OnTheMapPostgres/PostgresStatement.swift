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

    /// Nil when a value is of a type the store never binds: the caller then takes PostgresKit's road.
    init?(_ expression: any SQLExpression, in database: any SQLDatabase) {
        var serializer = SQLSerializer(database: database)
        expression.serialize(to: &serializer)
        var bindings = PostgresBindings(capacity: serializer.binds.count)
        for value in serializer.binds {
            guard Self.bind(value, to: &bindings) else { return nil }
        }
        query = PostgresQuery(unsafeSQL: serializer.sql, binds: bindings)
    }

    /// Appends the values the store binds: text, integers, doubles, booleans and nil.
    private static func bind(_ value: any Encodable, to bindings: inout PostgresBindings) -> Bool {
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
        default: return false
        }
        return true
    }

    /// Runs it on `connection`, handing each row to `onRow` as a `PostgresReadRow`.
    func run(on connection: PostgresConnection, logger: Logger, _ onRow: @Sendable (any SQLRow) -> Void) async throws {
        let rows = try await connection.query(query, logger: logger)
        var columns: [String]?
        for try await row in rows {
            let names = columns ?? row.map(\.columnName)
            columns = names
            onRow(PostgresReadRow(row: row, cells: row.makeRandomAccess(), columnNames: names))
        }
    }
}

extension PostgresConnection {
    /// Runs a SQLKit expression on this connection: on `PostgresStatement`'s road when it can,
    /// otherwise on PostgresKit's.
    func run(_ expression: any SQLExpression, in database: any SQLDatabase, logger: Logger, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        async throws
    {
        if let statement = PostgresStatement(expression, in: database) {
            try await statement.run(on: self, logger: logger, onRow)
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
