import SQLKit

/// A row an engine can read by column position. SQLKit's `decode(column:as:)` finds the column by
/// name and goes through a generic `Decodable` path; for a page of locations that cost more than
/// SQLite's own work, so the store reads the rows of engines that offer this by position.
public protocol PositionalSQLRow: SQLRow {
    /// The result's columns in order; the store checks them before reading by position.
    var columnNames: [String] { get }
    func string(at index: Int) throws -> String
    func double(at index: Int) throws -> Double
    func int64(at index: Int) throws -> Int64
    func isNull(at index: Int) -> Bool
}
