/// Random identifiers, all drawn from the system CSPRNG (`SystemRandomNumberGenerator` reads
/// `getrandom(2)` on Linux and `arc4random` on Darwin).
public enum Identifiers {
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private static let hexDigits = Array("0123456789abcdef")

    /// A Parse-style objectId: 10 characters of `[A-Za-z0-9]`.
    public static func objectId() -> String {
        var rng = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphanumerics[Int.random(in: 0..<alphanumerics.count, using: &rng)] })
    }

    /// A Udacity-style account key: 10 decimal digits, never starting with 0, so it stays 10 digits
    /// wherever a client turns it into a number.
    public static func accountKey() -> String {
        var rng = SystemRandomNumberGenerator()
        return String(UInt64.random(in: 1_000_000_000...9_999_999_999, using: &rng))
    }

    /// An opaque token of `bytes` random bytes as lowercase hex (sessions use 32 bytes: 256 bits).
    public static func token(bytes: Int = 32) -> String {
        var rng = SystemRandomNumberGenerator()
        return hex((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    /// Bytes as lowercase hex, two digits each.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var out = ""
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return out
    }
}
