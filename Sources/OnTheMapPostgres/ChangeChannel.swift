import Foundation
import SQLKit

/// The `LISTEN/NOTIFY` channel on which instances tell each other that locations changed. One per
/// schema, so that courses sharing a database do not wake each other. A notification carries the
/// sending instance's id, so that an instance skips its own (it has announced them already).
struct ChangeChannel: Sendable {
    let name: String
    let instanceID: String

    init(schema: String?, instanceID: String = UUID().uuidString) {
        name = schema.map { "onthemap_\($0)" } ?? "onthemap"
        self.instanceID = instanceID
    }

    /// Sent inside a writing transaction: PostgreSQL delivers it at commit, never on rollback.
    var notifyStatement: SQLQueryString {
        SQLQueryString("SELECT pg_notify(\(bind: name), \(bind: instanceID))")
    }
}
