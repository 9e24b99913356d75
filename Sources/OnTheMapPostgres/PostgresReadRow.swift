import NIOCore
import OnTheMapStore
import PostgresKit
import PostgresNIO
import SQLKit

/// A row as PostgreSQL sent it, read by position (`PositionalSQLRow`) or by name. Text, integers
/// and doubles are read straight from the cell's bytes in the format PostgreSQL sent them (the
/// store reads little else, and a page of 100 rows reads 1,100 cells, so PostgresNIO's generic
/// decoding through a `PostgresCell` per read cost as much as the rest of the page); any other
/// type, or a format the fast road does not know, goes through PostgresNIO's or PostgresKit's
/// decoding. A class: the store holds rows as `any SQLRow`, and a reference is copied for one
/// retain where a struct of this size is boxed and copied field by field.
final class PostgresReadRow: PositionalSQLRow {
    let row: PostgresRow
    /// Each cell's bytes, nil for NULL.
    let values: [ByteBuffer?]
    /// Shared by every row of one result.
    let columns: PostgresResultColumns

    /// Reads the cells of `row`, whose result's columns are `columns`.
    init(_ row: PostgresRow, columns: PostgresResultColumns) {
        var values: [ByteBuffer?] = []
        values.reserveCapacity(columns.names.count)
        for cell in row { values.append(cell.bytes) }
        self.row = row
        self.values = values
        self.columns = columns
    }

    var columnNames: [String] { columns.names }
    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.names.contains(column) }

    func decodeNil(column: String) throws -> Bool { values[try index(of: column)] == nil }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let index = try index(of: column)
        // The common types by comparing metatypes: asking the runtime for a conformance costs more.
        if D.self == String.self { return unsafeBitCast(try string(at: index), to: D.self) }
        if D.self == Int64.self { return unsafeBitCast(try int64(at: index), to: D.self) }
        if D.self == Int.self { return unsafeBitCast(Int(try int64(at: index)), to: D.self) }
        if D.self == Double.self { return unsafeBitCast(try double(at: index), to: D.self) }
        if D.self == Bool.self { return unsafeBitCast(try cell(index).decode(Bool.self), to: D.self) }
        return try row.sql().decode(column: column, as: type)
    }

    func string(at index: Int) throws -> String {
        if let bytes = values[index], columns.isText[index] { return String(buffer: bytes) }
        return try cell(index).decode(String.self)
    }

    func double(at index: Int) throws -> Double {
        if var bytes = values[index], columns.isBinary[index], columns.types[index] == .float8, let bits = bytes.readInteger(as: UInt64.self) {
            return Double(bitPattern: bits)
        }
        return try cell(index).decode(Double.self)
    }

    func int64(at index: Int) throws -> Int64 {
        if var bytes = values[index], columns.isBinary[index] {
            switch columns.types[index] {
            case .int8: if let value = bytes.readInteger(as: Int64.self) { return value }
            case .int4: if let value = bytes.readInteger(as: Int32.self) { return Int64(value) }
            case .int2: if let value = bytes.readInteger(as: Int16.self) { return Int64(value) }
            default: break
            }
        }
        return try cell(index).decode(Int64.self)
    }

    func isNull(at index: Int) -> Bool { index >= values.count || values[index] == nil }

    private func index(of column: String) throws -> Int {
        guard let index = columns.names.firstIndex(of: column) else { throw MissingColumn(column: column) }
        return index
    }

    /// The cell as PostgresNIO hands it out, for its own decoding: the slow road.
    private func cell(_ index: Int) -> PostgresCell { row.makeRandomAccess()[index] }
}

/// What every row of one result shares: its columns' names and how their cells are to be read.
/// Taken from the result's first row.
final class PostgresResultColumns: Sendable {
    let names: [String]
    let types: [PostgresDataType]
    let isBinary: [Bool]
    /// The cell's bytes are the text itself: a text type, in either format (they are the same).
    let isText: [Bool]

    init(of row: PostgresRow) {
        var names: [String] = [], types: [PostgresDataType] = [], isBinary: [Bool] = []
        for cell in row {
            names.append(cell.columnName)
            types.append(cell.dataType)
            isBinary.append(cell.format == .binary)
        }
        self.names = names
        self.types = types
        self.isBinary = isBinary
        isText = types.map { [.text, .varchar, .bpchar, .name].contains($0) }
    }
}

struct MissingColumn: Error, CustomStringConvertible {
    let column: String
    var description: String { "no column \(column) in the row" }
}
