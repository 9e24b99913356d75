import GRDB
import SQLKit

/// A row read through GRDB, copied out of the connection so that it can leave the database queue.
struct SQLiteRow: SQLRow {
    let allColumns: [String]
    let values: [DatabaseValue]

    init(_ row: Row) {
        allColumns = Array(row.columnNames)
        values = Array(row.databaseValues)
    }

    func contains(column: String) -> Bool { allColumns.contains(column) }

    func decodeNil(column: String) throws -> Bool { try value(column).isNull }

    /// Decodes the types the store reads: strings, integers, doubles, booleans, and optionals of them.
    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let value = try value(column)
        if let optional = D.self as? any OptionalColumn.Type {
            guard let decoded = try optional.decode(value, column: column) as? D else { throw mismatch(column, type) }
            return decoded
        }
        guard let convertible = D.self as? any DatabaseValueConvertible.Type,
              let decoded = convertible.fromDatabaseValue(value) as? D else { throw mismatch(column, type) }
        return decoded
    }

    private func value(_ column: String) throws -> DatabaseValue {
        guard let index = allColumns.firstIndex(of: column) else { throw SQLiteRowError.noSuchColumn(column) }
        return values[index]
    }

    private func mismatch(_ column: String, _ type: Any.Type) -> SQLiteRowError {
        .typeMismatch(column: column, type: "\(type)")
    }
}

enum SQLiteRowError: Error, CustomStringConvertible {
    case noSuchColumn(String)
    case typeMismatch(column: String, type: String)
    case unsupportedBind(String)
    case writeOutsidePerform

    var description: String {
        switch self {
        case .noSuchColumn(let column): "no column \(column) in the row"
        case .typeMismatch(let column, let type): "column \(column) does not hold a \(type)"
        case .unsupportedBind(let type): "cannot bind a value of type \(type)"
        case .writeOutsidePerform: "writes go through StoreWriter.perform, not SQLDatabase.execute"
        }
    }
}

/// `Optional<Wrapped>` where a NULL column decodes as nil.
private protocol OptionalColumn {
    static func decode(_ value: DatabaseValue, column: String) throws -> Any
}

extension Optional: OptionalColumn where Wrapped: DatabaseValueConvertible {
    fileprivate static func decode(_ value: DatabaseValue, column: String) throws -> Any {
        if value.isNull { return Wrapped?.none as Any }
        guard let wrapped = Wrapped.fromDatabaseValue(value) else {
            throw SQLiteRowError.typeMismatch(column: column, type: "\(Wrapped.self)")
        }
        return Wrapped?.some(wrapped) as Any
    }
}

/// A statement serialized for GRDB: its SQL and its bound values.
struct SQLiteStatement: Sendable {
    let sql: String
    let values: [DatabaseValue]

    init(_ expression: any SQLKit.SQLExpression, in database: any SQLDatabase) throws {
        let (sql, binds) = database.serialize(expression)
        self.sql = sql
        self.values = try binds.map(Self.databaseValue)
    }

    /// Runs it on `db` and copies out every row it returns (none for most writes).
    func rows(in db: Database) throws -> [SQLiteRow] {
        try Row.fetchAll(db, sql: sql, arguments: StatementArguments(values)).map(SQLiteRow.init)
    }

    /// SQLKit hands binds over as `Encodable`; the store binds strings, numbers, booleans and nil.
    private static func databaseValue(_ bind: any Encodable & Sendable) throws -> DatabaseValue {
        if let convertible = bind as? any DatabaseValueConvertible { return convertible.databaseValue }
        if Mirror(reflecting: bind).displayStyle == .optional { return .null }
        throw SQLiteRowError.unsupportedBind("\(type(of: bind))")
    }
}
