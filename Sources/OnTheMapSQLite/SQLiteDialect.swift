import SQLKit

/// How SQLKit writes SQL for SQLite 3.35 or newer (RETURNING and standard upserts). Only what the
/// store's statements use differs from SQLKit's defaults.
struct SQLiteDialect: SQLDialect {
    var name: String { "sqlite" }
    var identifierQuote: any SQLExpression { SQLRaw("\"") }
    var literalStringQuote: any SQLExpression { SQLRaw("'") }
    func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?") }
    func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "TRUE" : "FALSE") }
    var literalDefault: any SQLExpression { SQLLiteral.null }
    var supportsAutoIncrement: Bool { false }
    var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }
    var supportsIfExists: Bool { true }
    var supportsDropBehavior: Bool { false }
    var enumSyntax: SQLEnumSyntax { .unsupported }
    var supportsReturning: Bool { true }
    var upsertSyntax: SQLUpsertSyntax { .standard }
    var alterTableSyntax: SQLAlterTableSyntax { .init(allowsBatch: false) }
    var unionFeatures: SQLUnionFeatures { [.union, .unionAll, .intersect, .except] }
}
