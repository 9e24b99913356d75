import Foundation

/// A client address as per-address bounds count it. An IPv6 subscriber is given a whole /64 (often
/// more) and may send from any address in it, so an IPv6 address counts as its /64; an IPv4
/// address (or one mapped into IPv6) counts as itself. Text that is no address counts as itself.
enum AddressGroup {
    static func of(_ address: String) -> String {
        let host = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
        var bytes = [UInt8](repeating: 0, count: 16)
        guard host.contains(":"), inet_pton(AF_INET6, host, &bytes) == 1 else { return address }
        let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
        if Array(bytes.prefix(12)) == mappedPrefix { return bytes.suffix(4).map(String.init).joined(separator: ".") }
        let hextets = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return hextets.joined(separator: ":") + "::/64"
    }
}
