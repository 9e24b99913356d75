import NIOCore
import OnTheMapStore
import PostgresNIO
import SQLKit

/// A row as PostgreSQL sent it, read by position (`PositionalSQLRow`) or by name. Text, integers
/// and doubles are read once, as the row arrives, straight from the cell's bytes in the format
/// PostgreSQL sent them (the store reads little else, and a page of 100 rows reads 1,100 cells, so
/// PostgresNIO's generic decoding through a `PostgresCell` per read cost as much as the rest of the
/// page); any other type, or a format the fast road does not know, goes through PostgresNIO's
/// decoding when asked for. A class: the store holds rows as `any SQLRow`, and a reference is
/// copied for one retain where a struct of this size is boxed and copied field by field.
final class PostgresReadRow: PositionalSQLRow {
    /// Each cell, read once as it arrives.
    private let values: [Value]
    /// Shared by every row of one result.
    let columns: PostgresResultColumns

    private enum Value {
        case null, text(String), integer(Int64), double(Double)
        /// A type or format the fast road does not read: left to PostgresNIO's decoding.
        case other(ByteBuffer)
    }

    /// Reads the cells of `row`, whose result's columns are `columns`.
    init(_ row: PostgresRow, columns: PostgresResultColumns) {
        var values: [Value] = []
        values.reserveCapacity(columns.names.count)
        for (cell, kind) in zip(row, columns.kinds) { values.append(Self.value(of: cell, as: kind)) }
        self.values = values
        self.columns = columns
    }

    private static func value(of cell: PostgresCell, as kind: PostgresResultColumns.Kind) -> Value {
        guard let bytes = cell.bytes else { return .null }
        let value: Value? = switch kind {
        case .text: .text(String(buffer: bytes))
        case .int8: bytes.getInteger(at: bytes.readerIndex, as: Int64.self).map { .integer($0) }
        case .int4: bytes.getInteger(at: bytes.readerIndex, as: Int32.self).map { .integer(Int64($0)) }
        case .int2: bytes.getInteger(at: bytes.readerIndex, as: Int16.self).map { .integer(Int64($0)) }
        case .float8: bytes.getInteger(at: bytes.readerIndex, as: UInt64.self).map { .double(Double(bitPattern: $0)) }
        case .other: nil
        }
        return value ?? .other(bytes)
    }

    var columnNames: [String] { columns.names }
    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.names.contains(column) }

    func decodeNil(column: String) throws -> Bool { isNull(at: try index(of: column)) }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let index = try index(of: column)
        // The common types by comparing metatypes: asking the runtime for a conformance costs more.
        if D.self == String.self { return unsafeBitCast(try string(at: index), to: D.self) }
        if D.self == Int64.self { return unsafeBitCast(try int64(at: index), to: D.self) }
        if D.self == Int.self { return unsafeBitCast(Int(try int64(at: index)), to: D.self) }
        if D.self == Double.self { return unsafeBitCast(try double(at: index), to: D.self) }
        if D.self == Bool.self { return unsafeBitCast(try cell(index).decode(Bool.self), to: D.self) }
        // Anything else PostgresNIO can decode (optionals of the above among them).
        guard let decodable = D.self as? any PostgresDecodable.Type, let value = try decode(index, as: decodable) as? D else {
            throw DecodingError.typeMismatch(D.self, .init(codingPath: [], debugDescription: "column \(column) is not read as \(D.self)"))
        }
        return value
    }

    private func decode<T: PostgresDecodable>(_ index: Int, as _: T.Type) throws -> T { try cell(index).decode(T.self) }

    func string(at index: Int) throws -> String {
        if case .text(let text) = values[index] { return text }
        return try cell(index).decode(String.self)
    }

    func double(at index: Int) throws -> Double {
        if case .double(let double) = values[index] { return double }
        return try cell(index).decode(Double.self)
    }

    func int64(at index: Int) throws -> Int64 {
        if case .integer(let integer) = values[index] { return integer }
        return try cell(index).decode(Int64.self)
    }

    func isNull(at index: Int) -> Bool {
        guard index < values.count else { return true }
        if case .null = values[index] { return true }
        return false
    }

    private func index(of column: String) throws -> Int {
        guard let index = columns.names.firstIndex(of: column) else { throw MissingColumn(column: column) }
        return index
    }

    /// The cell as PostgresNIO hands it out, for its own decoding: the slow road.
    private func cell(_ index: Int) -> PostgresCell {
        // A cell read on the fast road is written back as PostgreSQL sent it (an optional, or a
        // type the fast road does not answer, is asked of a column it read).
        var bytes: ByteBuffer? = ByteBuffer()
        switch values[index] {
        case .null: bytes = nil
        case .other(let kept): bytes = kept
        case .text(let text): bytes?.writeString(text)
        case .double(let double): bytes?.writeInteger(double.bitPattern)
        case .integer(let integer):
            switch columns.kinds[index] {
            case .int4: bytes?.writeInteger(Int32(truncatingIfNeeded: integer))
            case .int2: bytes?.writeInteger(Int16(truncatingIfNeeded: integer))
            default: bytes?.writeInteger(integer)
            }
        }
        return PostgresCell(bytes: bytes, dataType: columns.types[index], format: columns.formats[index], columnName: columns.names[index], columnIndex: index)
    }
}

/// What every row of one result shares: its columns' names and how their cells are read. Taken
/// from the result's first row.
final class PostgresResultColumns: Sendable {
    /// How a column's cells are read on the fast road.
    enum Kind: Sendable {
        /// The cell's bytes are the text itself: a text type, in either format (they are the same).
        case text
        /// Big-endian binary integers and doubles.
        case int8, int4, int2, float8
        case other
    }

    let names: [String]
    let kinds: [Kind]
    let types: [PostgresDataType]
    let formats: [PostgresFormat]

    init(of row: PostgresRow) {
        let cells = Array(row)
        names = cells.map(\.columnName)
        kinds = cells.map(Self.kind(of:))
        types = cells.map(\.dataType)
        formats = cells.map(\.format)
    }

    private static func kind(of cell: PostgresCell) -> Kind {
        switch cell.dataType {
        case .text, .varchar, .bpchar, .name: return .text
        case _ where cell.format != .binary: return .other
        case .int8: return .int8
        case .int4: return .int4
        case .int2: return .int2
        case .float8: return .float8
        default: return .other
        }
    }
}

struct MissingColumn: Error, CustomStringConvertible {
    let column: String
    var description: String { "no column \(column) in the row" }
}
