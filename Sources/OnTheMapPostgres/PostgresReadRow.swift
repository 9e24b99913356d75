import OnTheMapStore
import PostgresKit
import PostgresNIO
import SQLKit

/// A row as PostgreSQL sent it, read by position (`PositionalSQLRow`) or by name. The types the
/// store reads are decoded straight from their cells; anything else goes through PostgresKit.
struct PostgresReadRow: PositionalSQLRow {
    let row: PostgresRow
    let cells: PostgresRandomAccessRow
    /// Shared by every row of one result.
    let columnNames: [String]

    var allColumns: [String] { columnNames }

    func contains(column: String) -> Bool { columnNames.contains(column) }

    func decodeNil(column: String) throws -> Bool { try cell(column).bytes == nil }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let cell = try cell(column)
        // The common types by comparing metatypes: asking the runtime for a conformance costs more.
        if D.self == String.self { return unsafeBitCast(try cell.decode(String.self), to: D.self) }
        if D.self == Int64.self { return unsafeBitCast(try cell.decode(Int64.self), to: D.self) }
        if D.self == Int.self { return unsafeBitCast(try cell.decode(Int.self), to: D.self) }
        if D.self == Double.self { return unsafeBitCast(try cell.decode(Double.self), to: D.self) }
        if D.self == Bool.self { return unsafeBitCast(try cell.decode(Bool.self), to: D.self) }
        return try row.sql().decode(column: column, as: type)
    }

    func string(at index: Int) throws -> String { try cells[index].decode(String.self) }
    func double(at index: Int) throws -> Double { try cells[index].decode(Double.self) }
    func int64(at index: Int) throws -> Int64 { try cells[index].decode(Int64.self) }
    func isNull(at index: Int) -> Bool { index >= columnNames.count || cells[index].bytes == nil }

    private func cell(_ column: String) throws -> PostgresCell {
        guard let index = columnNames.firstIndex(of: column) else { throw MissingColumn(column: column) }
        return cells[index]
    }
}

struct MissingColumn: Error, CustomStringConvertible {
    let column: String
    var description: String { "no column \(column) in the row" }
}
