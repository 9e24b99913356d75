import Logging
import PostgresNIO

/// Reads and writes through a connection pooler in transaction mode (PgBouncer): each transaction,
/// and each statement outside one, may run on another server connection. So nothing that lives in
/// a server session may be counted on: no named prepared statements (PgBouncer before 1.21 has
/// none), no settings sent at connection start (it refuses or drops `statement_timeout` and
/// `search_path`), no `LISTEN` and no session advisory lock (those go straight to the host,
/// `PostgresPools.direct`). What that leaves for the operator is checked here.
enum PostgresPooler {
    /// Why `pooler` cannot stand in front of `address`'s hosts, or nil.
    static func whyNot(_ pooler: PostgresAddress, for address: PostgresAddress) -> String? {
        if pooler.endpoints.count != address.endpoints.count {
            return "names \(pooler.endpoints.count) pooler host(s) for the database URL's \(address.endpoints.count): "
                + "one pooler in front of each database host, in the same order"
        }
        if pooler.schema != nil {
            return "has schema=…, which a pooler cannot pass on: name the schema in the database URL, and make it the role's "
                + "search_path (ALTER ROLE … IN DATABASE … SET search_path = …)"
        }
        return nil
    }

    /// Checks, through the pooler, that its connections find the tables where the direct ones do:
    /// `search_path` cannot be sent through it, so a schema of the database URL must be the role's
    /// own. Throws a `DatabaseConnectError` saying what to set otherwise.
    static func check(_ pooler: PostgresAddress, for address: PostgresAddress, pools: PostgresPools, logger: Logger) async throws {
        let wanted = try await currentSchema(on: pools.direct, logger: logger)
        let found = try await currentSchema(on: pools.writers, logger: logger)
        guard found == wanted else {
            throw DatabaseConnectError(
                address: pooler.description,
                reason: "its connections find tables in schema \(found ?? "(none)"), the database URL's in \(wanted ?? "(none)"): "
                    + "ALTER ROLE \(address.username) IN DATABASE \(address.database) SET search_path = \(wanted ?? "public")")
        }
    }

    private static func currentSchema(on client: PostgresClient, logger: Logger) async throws -> String? {
        var found: String?
        for try await schema in try await client.query("SELECT current_schema()", logger: logger).decode(String?.self) { found = schema }
        return found
    }
}
