import OnTheMapStore
import SQLKit

/// PostgreSQL's pieces of the store's SQL. Its writers commit together, so what SQLite gets from
/// its one writer taking writes in turn is asked for here: locks where writes must take turns,
/// event ids numbered by transaction, and the horizon below which they are final.
struct PostgresFlavour: SQLFlavour {
    /// Not the cluster's locale: `a` and `B` would swap places between the engines.
    var byteOrderCollation: String { " COLLATE \"C\"" }
    var generatedKey: String { "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY" }

    /// One statement (a data-modifying `WITH`) needs no BEGIN and COMMIT: one round trip, not four.
    var writesEventsInStatements: Bool { true }

    /// A lock held until the transaction ends, on a hash of `key`.
    func takingTurns(over key: any SQLExpression) -> [any SQLExpression] {
        [SQLQueryString("SELECT pg_advisory_xact_lock(hashtext(\(key))) IS NULL AS locked")]
    }

    var eventIsFinal: SQLRaw { SQLRaw("id < \(TransactionOrderedIDs.horizon.sql)") }

    /// An identity column numbers rows itself unless told to keep the number given.
    var keepingGivenKeys: String { " OVERRIDING SYSTEM VALUE" }

    func continuingNumbering(of table: String) -> (any SQLExpression)? {
        SQLQueryString("""
            SELECT setval(pg_get_serial_sequence('\(unsafeRaw: table)', 'id'), COALESCE((SELECT MAX(id) FROM \(unsafeRaw: table)), 0) + 1, false) AS next
            """)
    }
}
