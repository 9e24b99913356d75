import Foundation

/// A client address as per-address bounds count it. An IPv6 subscriber is given a whole /64 (often
/// more) and may send from any address in it, so an IPv6 address counts as its /64; an IPv4
/// address (or one mapped into IPv6) counts as itself. Text that is no address counts as itself.
enum AddressGroup {
    static func of(_ address: String) -> String {
        guard let bytes = IPAddress.bytes(of: address) else { return address }
        guard bytes.count == 16 else { return bytes.map(String.init).joined(separator: ".") }
        let hextets = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return hextets.joined(separator: ":") + "::/64"
    }
}

/// Reading an address as a socket or a header gives it.
enum IPAddress {
    /// Its bytes: 4 for IPv4 (an IPv4 address mapped into IPv6 included), 16 for IPv6 (a zone,
    /// `%eth0`, left out); nil for text that is no address.
    static func bytes(of text: String) -> [UInt8]? {
        let host = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        var four = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, host, &four) == 1 { return four }
        var sixteen = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, host, &sixteen) == 1 else { return nil }
        return sixteen.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] ? Array(sixteen.suffix(4)) : sixteen
    }
}
