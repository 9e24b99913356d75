import NIOConcurrencyHelpers
import NIOCore

/// Every open connection, whether it is idle, and how many each client address holds: the limits
/// of `EdgeLimits`. When the server is full, the connection idle longest is closed to make room
/// (an idle keep-alive connection costs its client one reconnect; a refused one costs a student
/// the page), and only when none is idle is a newcomer refused.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let channel: any Channel
        let address: String?
        /// When it last became idle (a counter: larger is more recent), nil while a request runs.
        var idleSince: Int?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var clock = 0
    }

    enum Admission { case admitted, fullFromThisAddress, full }

    let maxConnections: Int
    let maxPerAddress: Int?
    private let state = NIOLockedValueBox(State())

    init(maxConnections: Int, maxPerAddress: Int?) {
        self.maxConnections = max(1, maxConnections)
        self.maxPerAddress = maxPerAddress.map { max(1, $0) }
    }

    var count: Int { state.withLockedValue { $0.entries.count } }
    /// Connections with a request under way.
    var busyCount: Int { state.withLockedValue { $0.entries.values.count { $0.idleSince == nil } } }

    /// Admits `channel`, closing the longest-idle connection when the server is full.
    func admit(_ channel: any Channel, address: String?) -> Admission {
        let (admission, evicted) = state.withLockedValue { state -> (Admission, (any Channel)?) in
            if let address, let maxPerAddress, state.perAddress[address, default: 0] >= maxPerAddress {
                return (.fullFromThisAddress, nil)
            }
            var evicted: (any Channel)?
            if state.entries.count >= maxConnections {
                guard let oldest = state.entries.filter({ $0.value.idleSince != nil }).min(by: { $0.value.idleSince! < $1.value.idleSince! })
                else { return (.full, nil) }
                evicted = Self.remove(oldest.key, from: &state)
            }
            state.clock += 1
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, address: address, idleSince: state.clock)
            if let address { state.perAddress[address, default: 0] += 1 }
            return (.admitted, evicted)
        }
        evicted?.close(promise: nil)
        return admission
    }

    func remove(_ channel: any Channel) {
        _ = state.withLockedValue { Self.remove(ObjectIdentifier(channel), from: &$0) }
    }

    /// Marks `channel` idle (waiting for its next request) or busy.
    func setIdle(_ channel: any Channel, _ idle: Bool) {
        state.withLockedValue { state in
            guard state.entries[ObjectIdentifier(channel)] != nil else { return }
            state.clock += 1
            state.entries[ObjectIdentifier(channel)]!.idleSince = idle ? state.clock : nil
        }
    }

    private static func remove(_ id: ObjectIdentifier, from state: inout State) -> (any Channel)? {
        guard let entry = state.entries.removeValue(forKey: id) else { return nil }
        if let address = entry.address {
            let count = state.perAddress[address, default: 1] - 1
            state.perAddress[address] = count > 0 ? count : nil
        }
        return entry.channel
    }
}
