import Logging
import NIOCore
import PostgresNIO

/// What one host of the database URL is right now, as a connection of its own finds it.
enum PostgresHostRole: Sendable, Equatable, CustomStringConvertible {
    /// It takes writes.
    case primary
    /// A standby in recovery (or a server set read-only): it takes reads only.
    case standby
    /// It could not be asked, and why: refused, no answer, starting up, a bad password.
    case unreachable(String)

    /// It could not be asked, for a reason it gave (refused, a bad password): not merely slow.
    var refused: Bool {
        guard case .unreachable(let reason) = self else { return false }
        return !reason.hasPrefix("no answer within")
    }

    var description: String {
        switch self {
        case .primary: "the primary"
        case .standby: "a standby"
        case .unreachable(let reason): reason
        }
    }

    /// Asks `endpoint` whether it takes writes, as libpq's `target_session_attrs=read-write` does:
    /// in recovery, or read-only by default, it does not. Gives up after `timeout` in all.
    static func of(_ endpoint: PostgresAddress.Endpoint, in address: PostgresAddress, timeout: Duration, logger: Logger) async -> PostgresHostRole {
        await withTaskGroup(of: PostgresHostRole?.self) { group in
            group.addTask { await ask(endpoint, in: address, timeout: timeout, logger: logger) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .unreachable("no answer within \(timeout)")
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .unreachable("no answer within \(timeout)")
        }
    }

    /// The roles of every host of `address`, asked at once, in the URL's order.
    static func ofEach(in address: PostgresAddress, timeout: Duration, logger: Logger) async -> [(PostgresAddress.Endpoint, PostgresHostRole)] {
        await withTaskGroup(of: (Int, PostgresHostRole).self) { group in
            for (index, endpoint) in address.endpoints.enumerated() {
                group.addTask { (index, await of(endpoint, in: address, timeout: timeout, logger: logger)) }
            }
            var roles = [PostgresHostRole](repeating: .unreachable("not asked"), count: address.endpoints.count)
            for await (index, role) in group { roles[index] = role }
            return Array(zip(address.endpoints, roles))
        }
    }

    private static func ask(_ endpoint: PostgresAddress.Endpoint, in address: PostgresAddress, timeout: Duration, logger: Logger) async -> PostgresHostRole {
        do {
            let connection = try await address.connect(to: endpoint, timeout: timeout, logger: logger)
            defer { Task { try? await connection.close() } }
            let rows = try await connection.query(
                "SELECT pg_is_in_recovery() OR current_setting('default_transaction_read_only') = 'on'", logger: logger)
            for try await readOnly in rows.decode(Bool.self) { return readOnly ? .standby : .primary }
            return .unreachable("no answer to whether it is in recovery")
        } catch let error as PSQLError where error.serverInfo?[.message] != nil {
            return .unreachable(error.serverInfo?[.message] ?? "")
        } catch {
            // Refused or slow in a word; anything else (a TLS failure) in the library's own words,
            // which name the certificate's fault.
            let words = String(reflecting: error)
            if words.localizedCaseInsensitiveContains("refused") { return .unreachable("connection refused") }
            if words.localizedCaseInsensitiveContains("timed out") || words.contains("connectTimeout") { return .unreachable("connecting timed out") }
            return .unreachable(words)
        }
    }
}
