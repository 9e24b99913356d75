import Crypto
import OnTheMapModel
import SQLKit

/// Copies what a database holds (accounts with their providers' identities, sessions, locations,
/// and the moderation record: reports, the audit log, password reset links; LTI's platforms, keys and
/// platform courses) into another, of either engine, and proves the
/// copy: the same number of rows and the same SHA-256 over every value of every row, read back
/// from both. The event log, rate limits, leases and logins half-way through a provider are per
/// deployment and are not copied; a live client of the new database reloads its list once.
public enum DataCopy {
    /// What was copied, per table, with the checksum both sides agree on.
    public struct TableReport: Sendable, Equatable {
        public let table: String
        public let rows: Int
        public let checksum: String
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        /// The target holds rows and `replace` was not asked for.
        case targetNotEmpty(counts: [String: Int])
        /// The copy does not read back the same (the source changed meanwhile, say).
        case mismatch(table: String, source: String, target: String)

        public var description: String {
            switch self {
            case .targetNotEmpty(let counts):
                let held = counts.sorted { $0.key < $1.key }.filter { $0.value > 0 }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                return "the target is not empty (\(held)); pass --replace to empty it first"
            case .mismatch(let table, let source, let target):
                return "\(table) differs after copying (source \(source), target \(target)); was the source being written to?"
            }
        }
    }

    /// A table copied, with its columns, key first: the key is the first `keyColumns` of them.
    struct Table {
        let name: String
        let columns: [(name: String, kind: ColumnKind)]
        var keyColumns = 1

        init(_ name: String, _ columns: [(name: String, kind: ColumnKind)], keyColumns: Int = 1) {
            self.name = name
            self.columns = columns
            self.keyColumns = keyColumns
        }
    }

    /// The tables in an order that satisfies their foreign keys.
    static let tables: [Table] = [
        Table("accounts", [("key", .text), ("email", .text), ("password_hash", .text), ("first_name", .text), ("last_name", .text),
                      ("is_admin", .bool), ("created_at", .integer), ("disabled_at", .optionalInteger), ("last_login_at", .optionalInteger)]),
        Table("courses", [("id", .integer), ("slug", .text), ("title", .text), ("created_at", .integer), ("archived_at", .optionalInteger),
                     ("visibility", .text), ("names_shown", .text), ("approval_required", .bool), ("everyone_joins", .bool),
                     ("invite_token_hash", .optionalText), ("invite_enabled", .bool), ("invite_generation", .integer)]),
        Table("course_members", [("course_id", .integer), ("account_key", .text), ("role", .text), ("joined_at", .integer)], keyColumns: 2),
        Table("course_pending_members", [("course_id", .integer), ("email", .text), ("role", .text), ("added_at", .integer)], keyColumns: 2),
        Table("account_identities", [("provider", .text), ("subject", .text), ("account_key", .text), ("email", .text), ("linked_at", .integer)],
              keyColumns: 2),
        Table("sessions", [("token_hash", .text), ("account_key", .text), ("created_at", .integer), ("expires_at", .integer),
                           ("idle_expires_at", .optionalInteger), ("confirmed_at", .optionalInteger)]),
        Table("student_locations", SQLStore.LocationColumn.allCases.map { column in
            let kind: ColumnKind = switch column {
            case .ownerKey: .optionalText
            case .latitude, .longitude: .double
            case .createdAt, .updatedAt: .integer
            default: .text
            }
            return (column.name, kind)
        } + [("hidden_at", .optionalInteger), ("course_id", .integer), ("awaiting_approval", .bool)]),
        // Numbered by the database: copied with their numbers, which the target then goes on from.
        Table("reports", [("id", .integer), ("object_id", .text), ("reporter_key", .text), ("reason", .text), ("created_at", .integer),
                     ("resolved_at", .optionalInteger), ("resolved_by", .optionalText), ("resolution", .optionalText),
                     ("course_id", .integer)]),
        Table("audit_log", [("id", .integer), ("at", .integer), ("actor_key", .optionalText), ("actor_email", .text), ("action", .text),
                       ("target", .text), ("detail", .text), ("course_id", .optionalInteger)]),
        Table("password_resets", [("token_hash", .text), ("account_key", .text), ("created_at", .integer), ("expires_at", .integer)]),
        // LTI 1.3: the registered platforms, the tool's keys (sealed under the server's secret, so
        // a copy serves only with that secret) and which platform course is which course.
        Table("lti_platforms", [("id", .integer), ("issuer", .text), ("client_id", .text), ("name", .text), ("authorization_url", .text),
                           ("jwks_url", .text), ("token_url", .text), ("created_at", .integer)]),
        Table("lti_deployments", [("platform_id", .integer), ("deployment_id", .text)], keyColumns: 2),
        Table("lti_tool_keys", [("kid", .text), ("sealed_private_key", .text), ("created_at", .integer), ("retired_at", .optionalInteger)]),
        Table("lti_contexts", [("platform_id", .integer), ("context_id", .text), ("course_id", .integer), ("memberships_url", .optionalText),
                               ("line_items_url", .optionalText), ("line_item_url", .optionalText)], keyColumns: 2),
    ]

    /// Tables whose key the database numbers (`SQLFlavour.generatedKey`).
    static let numbered: Set<String> = ["courses", "reports", "audit_log", "lti_platforms"]

    enum ColumnKind { case text, optionalText, integer, optionalInteger, double, bool }

    /// Copies `source` into `target`, page by page in key order, then checks both read back alike.
    /// With `replace`, the target's accounts (and with them their sessions and locations) and any
    /// anonymous locations are deleted first, in one transaction; otherwise a non-empty target is refused.
    public static func run(from source: SQLStore, to target: SQLStore, replace: Bool, pageSize: Int = 1000) async throws -> [TableReport] {
        let held = try await counts(in: target)
        // A new database holds its default course, which the source's replaces.
        if holdsData(held), !replace { throw Failure.targetNotEmpty(counts: held) }
        try await target.writer.perform(WriteUnit(tables.reversed().map { SQLQueryString("DELETE FROM \(unsafeRaw: $0.name)") }) { _ in ((), []) })
        for table in tables {
            try await forEachPage(of: table, in: source, pageSize: pageSize) { page in try await insert(page, into: table, in: target) }
            if numbered.contains(table.name) { try await continueNumbering(table.name, in: target) }
        }
        var reports: [TableReport] = []
        for table in tables {
            let (sourceRows, sourceSum) = try await checksum(of: table, in: source, pageSize: pageSize)
            let (targetRows, targetSum) = try await checksum(of: table, in: target, pageSize: pageSize)
            guard sourceRows == targetRows, sourceSum == targetSum else {
                throw Failure.mismatch(table: table.name, source: "\(sourceRows) rows, \(sourceSum.prefix(12))", target: "\(targetRows) rows, \(targetSum.prefix(12))")
            }
            reports.append(TableReport(table: table.name, rows: sourceRows, checksum: sourceSum))
        }
        // Streams of servers on the target, live or resuming, reload: the log's events described
        // the data that was there before.
        try await target.startLocationEventEpoch()
        return reports
    }

    /// Whether a database with these `counts` holds anything a copy into it would lose: a new one
    /// holds only the default course its migrations made.
    public static func holdsData(_ counts: [String: Int]) -> Bool {
        counts.contains { $0.key != "courses" && $0.value > 0 }
    }

    /// Rows per table.
    public static func counts(in store: SQLStore) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table.name] = try await store.reader.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table.name)").first()?
                .decode(column: "n", as: Int.self) ?? 0
        }
        return counts
    }

    /// One value of a row, as both engines store it.
    enum Value: Sendable, Equatable {
        /// `nullInteger` is bound as an integer: PostgreSQL refuses a text-typed NULL for a BIGINT column.
        case text(String), null, nullInteger, integer(Int64), double(Double), bool(Bool)

        var bind: any Encodable & Sendable {
            switch self {
            case .text(let text): text
            case .null: String?.none
            case .nullInteger: Int64?.none
            case .integer(let number): number
            case .double(let number): number
            case .bool(let flag): flag
            }
        }

        /// Exact and unambiguous: a double by its bits, every value tagged with its kind.
        var canonical: String {
            switch self {
            case .text(let text): "t\(text.utf8.count):\(text)"
            case .null, .nullInteger: "n"
            case .integer(let number): "i\(number)"
            case .double(let number): "d\(String(number.bitPattern, radix: 16))"
            case .bool(let flag): flag ? "b1" : "b0"
            }
        }
    }

    /// Reads `table` from `store` in pages of `pageSize` rows, in key order.
    private static func forEachPage(of table: Table, in store: SQLStore, pageSize: Int, _ body: ([[Value]]) async throws -> Void) async throws {
        var after: [Value]?
        while true {
            let page = try await rows(of: table, in: store, after: after, limit: pageSize)
            if !page.isEmpty { try await body(page) }
            guard page.count == pageSize, let last = page.last else { return }
            after = Array(last.prefix(table.keyColumns))
        }
    }

    /// A page in key order. Text keys are compared byte by byte on both engines (SQLite's way; on
    /// PostgreSQL, `COLLATE "C"`), so that both sides read their rows, and checksum them, in the
    /// same order whatever the server's locale: under `en_US`, `a` sorts before `B`.
    private static func rows(of table: Table, in store: SQLStore, after key: [Value]?, limit: Int) async throws -> [[Value]] {
        let columns = table.columns.map(\.name).joined(separator: ", ")
        let keyColumns = table.columns.prefix(table.keyColumns).map { $0.name + ($0.kind == .text ? store.flavour.byteOrderCollation : "") }
            .joined(separator: ", ")
        let condition: SQLQueryString = key.map { values in
            "WHERE (\(unsafeRaw: keyColumns)) > (\(SQLList(values.map { SQLBind($0.bind) })))"
        } ?? ""
        let query: SQLQueryString = "SELECT \(unsafeRaw: columns) FROM \(unsafeRaw: table.name) \(condition) ORDER BY \(unsafeRaw: keyColumns) LIMIT \(bind: limit)"
        return try await store.reader.raw(query).all().map { row in
            try table.columns.map { column -> Value in
                switch column.kind {
                case .text: .text(try row.decode(column: column.name, as: String.self))
                case .optionalText: try row.decodeNil(column: column.name) ? .null : .text(try row.decode(column: column.name, as: String.self))
                case .integer: .integer(try row.decode(column: column.name, as: Int64.self))
                case .optionalInteger: try row.optionalInt64(column: column.name).map(Value.integer) ?? .nullInteger
                case .double: .double(try row.decode(column: column.name, as: Double.self))
                case .bool: .bool(try row.decode(column: column.name, as: Bool.self))
                }
            }
        }
    }

    private static func insert(_ rows: [[Value]], into table: Table, in store: SQLStore) async throws {
        let columns = table.columns.map(\.name).joined(separator: ", ")
        let values = SQLList(rows.map { row in SQLGroupExpression(row.map { SQLBind($0.bind) }) })
        let keep = numbered.contains(table.name) ? store.flavour.keepingGivenKeys : ""
        let statement = SQLList([SQLRaw("INSERT INTO \(table.name) (\(columns))\(keep) VALUES "), values], separator: SQLRaw(""))
        try await store.writer.perform(WriteUnit([statement]) { _ in ((), []) })
    }

    /// The next number the target gives `table` follows the highest copied.
    private static func continueNumbering(_ table: String, in store: SQLStore) async throws {
        guard let statement = store.flavour.continuingNumbering(of: table) else { return }
        try await store.writer.run(statement)
    }

    private static func checksum(of table: Table, in store: SQLStore, pageSize: Int) async throws -> (rows: Int, sha256: String) {
        var hash = SHA256()
        var count = 0
        try await forEachPage(of: table, in: store, pageSize: pageSize) { page in
            for row in page {
                hash.update(data: Array((row.map(\.canonical).joined(separator: "\u{1f}") + "\u{1e}").utf8))
            }
            count += page.count
        }
        return (count, Identifiers.hex(hash.finalize()))
    }
}
