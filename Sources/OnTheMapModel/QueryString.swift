/// Splits a raw query string into percent-decoded name/value pairs, keeping their order.
///
/// Tolerates what real clients send: a trailing `&`, an empty `?`, empty pieces, names without `=`.
/// `+` is kept as a plus (iOS clients do not encode it); see `LocationQuery.parseWhere`.
public enum QueryString {
    public static func parse(_ raw: String?) -> [(name: String, value: String)] {
        rawPairs(raw).map { (name: $0.name, value: percentDecode($0.value)) }
    }

    /// Name/value pairs with the values still percent-encoded, for parameters whose decoding must
    /// be checked (`strictPercentDecode`).
    public static func rawPairs(_ raw: String?) -> [(name: String, value: Substring)] {
        guard let raw, !raw.isEmpty else { return [] }
        return raw.split(separator: "&").compactMap { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(parts[0])
            guard !name.isEmpty else { return nil }
            return (name: name, value: parts.count > 1 ? parts[1] : "")
        }
    }

    /// Decodes `%XX` escapes; nil when the result is not valid UTF-8.
    public static func strictPercentDecode(_ text: Substring) -> String? {
        let decoded = percentDecodeBytes(text)
        let string = String(decoding: decoded, as: UTF8.self)
        // Decoding repairs invalid sequences with U+FFFD: a repaired string no longer matches its bytes.
        return string.utf8.elementsEqual(decoded) ? string : nil
    }

    /// Decodes `%XX` escapes; a malformed escape is kept as written, invalid UTF-8 is repaired.
    public static func percentDecode(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        return String(decoding: percentDecodeBytes(text), as: UTF8.self)
    }

    private static func percentDecodeBytes(_ text: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let high = hexValue(iterator[iterator.startIndex]), let low = hexValue(iterator[iterator.startIndex + 1]) {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    /// The value of one hexadecimal digit, or nil (percent-escapes here, chunk sizes in the edge).
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
