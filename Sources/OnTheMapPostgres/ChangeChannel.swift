import Foundation
import PostgresNIO

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

    /// Sent on its own once writes have committed (see `CommitAnnouncer`).
    var notifyQuery: PostgresQuery {
        "SELECT pg_notify(\(name), \(instanceID))"
    }
}
