import OnTheMapModel
import SQLKit

extension LocationField {
    /// The column that stores the field.
    var columnName: String {
        switch self {
        case .objectId: "object_id"
        case .uniqueKey: "unique_key"
        case .firstName: "first_name"
        case .lastName: "last_name"
        case .mapString: "map_string"
        case .mediaURL: "media_url"
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .createdAt: "created_at"
        case .updatedAt: "updated_at"
        }
    }
}

extension FilterValue {
    /// The value as a bind parameter in the column's storage type.
    var bind: SQLBind {
        switch self {
        case .text(let text): SQLBind(text)
        case .number(let number): SQLBind(number)
        case .timestamp(let millis): SQLBind(millis)
        }
    }
}

extension LocationFilter {
    /// The filter as a boolean SQL expression; every literal is a bind parameter.
    var sqlExpression: any SQLExpression {
        switch self {
        case .all:
            return SQLRaw("1 = 1")
        case .none:
            return SQLRaw("1 = 0")
        case .and(let parts):
            // An empty group would be a syntax error; the parser folds these away, this keeps SQL valid anyway.
            return parts.isEmpty ? SQLRaw("1 = 1") : SQLGroupExpression(SQLList(parts.map(\.sqlExpression), separator: SQLRaw(" AND ")))
        case .or(let parts):
            return parts.isEmpty ? SQLRaw("1 = 0") : SQLGroupExpression(SQLList(parts.map(\.sqlExpression), separator: SQLRaw(" OR ")))
        case .compare(let field, let comparison, let value):
            return SQLBinaryExpression(left: SQLColumn(field.columnName), op: comparison.sqlOperator, right: value.bind)
        case .oneOf(let field, let values, let negated):
            return SQLBinaryExpression(
                left: SQLColumn(field.columnName), op: negated ? SQLBinaryOperator.notIn : .in,
                right: SQLGroupExpression(values.map(\.bind)))
        }
    }
}

extension LocationFilter.Comparison {
    var sqlOperator: SQLBinaryOperator {
        switch self {
        case .equal: .equal
        case .notEqual: .notEqual
        case .less: .lessThan
        case .lessOrEqual: .lessThanOrEqual
        case .greater: .greaterThan
        case .greaterOrEqual: .greaterThanOrEqual
        }
    }
}
