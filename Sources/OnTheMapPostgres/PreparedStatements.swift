import NIOConcurrencyHelpers
import PostgresNIO

/// Statements prepared once per connection. A statement sent unnamed is parsed, analysed and
/// planned again every time, and for the store's statements that is most of PostgreSQL's work: a
/// pin's upsert with its event cost the database 0.30 ms that way and 0.08 ms prepared (pgbench,
/// 32 clients, the same statement). PostgresNIO prepares a statement on each connection the first
/// time it runs there and afterwards only binds and executes it; it keys them by a name and reads
/// the SQL from the statement's type (`PostgresPreparedStatement`), because it expects SQL fixed at
/// compile time. The store's SQL is built at run time, so `StoreStatement` hands PostgresNIO the
/// name and SQL of the statement being run through a task-local value, read while the call starts.
///
/// Only what repeats is prepared: a statement gets a name the second time it is run (a query
/// builder can make endless one-off shapes, an `IN` list of every length), and at most `limit`
/// statements do; the rest go unnamed. Statements with a NULL value go unnamed too: PostgreSQL
/// would infer that parameter's type from the first call, and a later call with a value could
/// disagree with it.
final class PreparedStatements: Sendable {
    private struct Names {
        var bySQL: [String: String] = [:]
        var seen: Set<String> = []
        /// Statements whose prepared form failed (the schema changed under it): they go unnamed.
        var refused: Set<String> = []
        /// Names are never reused: a connection may still hold a refused statement's.
        var numbered = 0
    }

    static let shared = PreparedStatements()
    let limit: Int
    private let names = NIOLockedValueBox(Names())

    init(limit: Int = 256) { self.limit = limit }

    /// The name to prepare `sql` under, or nil to send it unnamed.
    func name(for sql: String) -> String? {
        names.withLockedValue { names in
            if let name = names.bySQL[sql] { return name }
            guard names.numbered < limit, !names.refused.contains(sql) else { return nil }
            guard names.seen.contains(sql) else {
                if names.seen.count < limit * 4 { names.seen.insert(sql) }
                return nil
            }
            names.seen.remove(sql)
            names.numbered += 1
            let name = "onthemap_\(names.numbered)"
            names.bySQL[sql] = name
            return name
        }
    }

    /// `sql`'s prepared form failed where the unnamed statement worked: it goes unnamed from now on.
    func refuse(_ sql: String) {
        names.withLockedValue { names in
            names.bySQL[sql] = nil
            names.refused.insert(sql)
        }
    }
}

/// One of the store's statements as PostgresNIO's prepared statement: its name and SQL are the
/// ones `StoreStatement.$running` holds while `PostgresConnection.execute` starts.
struct StoreStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow
    @TaskLocal static var running = (name: "", sql: "")

    static var name: String { running.name }
    static var sql: String { running.sql }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
