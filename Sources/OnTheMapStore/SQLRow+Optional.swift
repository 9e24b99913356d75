import SQLKit

extension SQLRow {
    /// A nullable integer column, asked as two plain questions: decoding an optional through
    /// SQLKit's generic path costs far more.
    func optionalInt64(column: String) throws -> Int64? {
        try decodeNil(column: column) ? nil : try decode(column: column, as: Int64.self)
    }

    /// A nullable text column, the same way.
    func optionalString(column: String) throws -> String? {
        try decodeNil(column: column) ? nil : try decode(column: column, as: String.self)
    }
}
