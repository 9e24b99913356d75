import Foundation

/// The reverse proxies whose `X-Forwarded-For` the server believes (`--trust-proxy`): addresses
/// and CIDR ranges. Only a request whose socket peer is one of them has its header read at all,
/// and then the client is the rightmost hop that is not one of them: each trusted proxy appends the
/// address it was reached from, while anything further left was written by the client itself.
public struct TrustedProxies: Sendable, Equatable {
    /// An address range: the first `prefixLength` bits of `bytes` (4 bytes for IPv4, 16 for IPv6).
    struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for (have, want) in zip(address, bytes) where remaining > 0 {
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                guard have & mask == want & mask else { return false }
                remaining -= 8
            }
            return true
        }
    }

    let ranges: [Range]

    /// Nobody: `X-Forwarded-For` is never read.
    public static let nobody = TrustedProxies(ranges: [])
    /// A proxy on this machine (what `--trust-proxy yes` means): 127.0.0.0/8 and ::1.
    public static let loopback = TrustedProxies(ranges: [Range(bytes: [127, 0, 0, 0], prefixLength: 8), Range(bytes: Array(repeating: 0, count: 15) + [1], prefixLength: 128)])

    private init(ranges: [Range]) {
        self.ranges = ranges
    }

    /// Addresses and ranges such as `10.0.0.5, 192.168.0.0/16, 2001:db8::/32`; nil if one is not.
    public init?(list: String) {
        var ranges: [Range] = []
        for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let parts = item.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = IPAddress.bytes(of: parts[0]) else { return nil }
            let length = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let length, (0...(bytes.count * 8)).contains(length) else { return nil }
            ranges.append(Range(bytes: bytes, prefixLength: length))
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` (text, as a socket or a header gives it) is one of the proxies.
    func contains(_ address: String) -> Bool {
        guard let bytes = IPAddress.bytes(of: address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client behind `peer`, given the `X-Forwarded-For` header it sent. A request made in the
    /// process (the router tests') has no peer, and counts as a proxy's.
    func client(peer: String?, forwardedFor header: String?) -> String {
        if let peer, !contains(peer) { return peer }
        let hops = (header ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !contains($0) } ?? hops.first ?? peer ?? "unknown"
    }
}
