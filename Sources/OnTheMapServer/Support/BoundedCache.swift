import NIOConcurrencyHelpers

/// A dictionary shared between requests that holds at most `limit` entries: when full, a new entry
/// takes the place of one already there. For answers that are cheap to make again and whose keys
/// come from requests, so that no caller can grow it without end.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = NIOLockedValueBox<[Key: Value]>([:])
    let limit: Int

    init(limit: Int) {
        precondition(limit > 0, "a cache holds at least one entry")
        self.limit = limit
    }

    subscript(key: Key) -> Value? {
        get { entries.withLockedValue { $0[key] } }
        set {
            entries.withLockedValue { entries in
                if newValue != nil, entries[key] == nil, entries.count >= limit, let any = entries.keys.first { entries[any] = nil }
                entries[key] = newValue
            }
        }
    }

    var count: Int { entries.withLockedValue { $0.count } }
}
