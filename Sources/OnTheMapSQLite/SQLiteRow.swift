import GRDB
import OnTheMapStore
import SQLKit

/// A row read through GRDB, copied out of the connection so that it can leave the database queue.
struct SQLiteRow: SQLRow {
    /// Shared by every row of one result.
    let allColumns: [String]
    let values: [DatabaseValue]

    func contains(column: String) -> Bool { allColumns.contains(column) }

    func decodeNil(column: String) throws -> Bool { try value(column).isNull }

    /// Decodes the types the store reads: strings, integers, doubles, booleans, and optionals of them.
    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let value = try value(column)
        // The common types first, by comparing metatypes: the generic path below asks the runtime
        // for protocol conformances, which cost more than the rest of reading a row.
        switch value.storage {
        case .string(let string) where D.self == String.self: return unsafeBitCast(string, to: D.self)
        case .int64(let integer) where D.self == Int64.self: return unsafeBitCast(integer, to: D.self)
        case .double(let double) where D.self == Double.self: return unsafeBitCast(double, to: D.self)
        case .int64(let integer) where D.self == Double.self: return unsafeBitCast(Double(integer), to: D.self)
        default: break
        }
        if let optional = D.self as? any OptionalColumn.Type {
            guard let decoded = try optional.decode(value, column: column) as? D else { throw mismatch(column, type) }
            return decoded
        }
        guard let convertible = D.self as? any DatabaseValueConvertible.Type,
              let decoded = convertible.fromDatabaseValue(value) as? D else { throw mismatch(column, type) }
        return decoded
    }

    private func mismatch(_ index: Int, _ type: Any.Type) -> SQLiteRowError {
        index < allColumns.count ? mismatch(allColumns[index], type) : .noSuchColumn("#\(index)")
    }

    private func value(_ column: String) throws -> DatabaseValue {
        guard let index = allColumns.firstIndex(of: column) else { throw SQLiteRowError.noSuchColumn(column) }
        return values[index]
    }

    private func mismatch(_ column: String, _ type: Any.Type) -> SQLiteRowError {
        .typeMismatch(column: column, type: "\(type)")
    }
}

extension SQLiteRow: PositionalSQLRow {
    var columnNames: [String] { allColumns }

    func string(at index: Int) throws -> String {
        guard index < values.count, case .string(let string) = values[index].storage else { throw mismatch(index, String.self) }
        return string
    }

    func double(at index: Int) throws -> Double {
        guard index < values.count else { throw mismatch(index, Double.self) }
        switch values[index].storage {
        case .double(let double): return double
        case .int64(let integer): return Double(integer)
        default: throw mismatch(index, Double.self)
        }
    }

    func int64(at index: Int) throws -> Int64 {
        guard index < values.count, case .int64(let integer) = values[index].storage else { throw mismatch(index, Int64.self) }
        return integer
    }

    func isNull(at index: Int) -> Bool { index >= values.count || values[index].isNull }
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
    /// The rows, copied out of the connection; the statement stays prepared on it for next time.
    func rows(in db: Database) throws -> [SQLiteRow] {
        let statement = try db.cachedStatement(sql: sql)
        let columns = statement.columnNames
        let indices = 0..<CInt(columns.count)
        // The cursor steps the statement; each row's values are read straight off it (GRDB's
        // Row.databaseValues goes through a generic lazy map that costs more than SQLite does).
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(values))
        var rows: [SQLiteRow] = []
        while try cursor.next() != nil {
            rows.append(SQLiteRow(allColumns: columns, values: indices.map { DatabaseValue(sqliteStatement: statement.sqliteStatement, index: $0) }))
        }
        return rows
    }

    /// SQLKit hands binds over as `Encodable`; the store binds strings, numbers, booleans and nil.
    private static func databaseValue(_ bind: any Encodable & Sendable) throws -> DatabaseValue {
        if let convertible = bind as? any DatabaseValueConvertible { return convertible.databaseValue }
        if Mirror(reflecting: bind).displayStyle == .optional { return .null }
        throw SQLiteRowError.unsupportedBind("\(type(of: bind))")
    }
}
