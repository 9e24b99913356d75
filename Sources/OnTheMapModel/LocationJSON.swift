/// The list page's JSON, written by hand: `{"count":N,"results":[…]}` (`count` only when asked
/// for) byte for byte as `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` writes it,
/// several times faster. The page is the service's hottest answer and its wire format is fixed:
/// ten fields of known types. `LocationJSONTests` compares both writers on random and edge-case
/// locations, and the snapshot tests pin the bytes.
public enum LocationJSON {
    public static func page(_ results: [StudentLocation], count: Int?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + results.count * 320)
        out.append(UInt8(ascii: "{"))
        if let count {
            append(raw: #""count":"#, to: &out)
            append(raw: String(count), to: &out)
            out.append(UInt8(ascii: ","))
        }
        append(raw: #""results":["#, to: &out)
        for (index, location) in results.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(location, to: &out)
        }
        append(raw: "]}", to: &out)
        return out
    }

    /// One location as the list shows it (the live map's events carry it).
    public static func object(_ location: StudentLocation) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(320)
        append(location, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a JSON string, escaped as the list escapes it.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        append(string: text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A coordinate as the list writes it (`append(number:)`).
    public static func number(_ value: Double) -> String {
        var out: [UInt8] = []
        append(number: value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// One location, keys in sorted order.
    static func append(_ location: StudentLocation, to out: inout [UInt8]) {
        append(raw: #"{"createdAt":"#, to: &out)
        append(time: location.createdAt, to: &out)
        appendFromFirstName(location, to: &out)
        append(string: location.objectId, to: &out)
        appendFromUniqueKey(location, to: &out)
    }

    /// `object(location)` in three parts around the two values that the database decides when it
    /// saves a pin (an overwrite keeps the pin's own objectId and createdAt): the createdAt as
    /// `WireTime` writes it goes between the first two, the objectId as a JSON string between the
    /// last two. PostgreSQL fills them in to record a pin's event in the statement that saves it.
    public static func objectAround(createdAtAndObjectIdOf location: StudentLocation) -> (String, String, String) {
        var middle: [UInt8] = [UInt8(ascii: "\"")]
        appendFromFirstName(location, to: &middle)
        var end: [UInt8] = []
        appendFromUniqueKey(location, to: &end)
        return (#"{"createdAt":""#, String(decoding: middle, as: UTF8.self), String(decoding: end, as: UTF8.self))
    }

    /// From `,"firstName":` through `"objectId":`, its value left out.
    private static func appendFromFirstName(_ location: StudentLocation, to out: inout [UInt8]) {
        append(raw: #","firstName":"#, to: &out)
        append(string: location.firstName, to: &out)
        append(raw: #","lastName":"#, to: &out)
        append(string: location.lastName, to: &out)
        append(raw: #","latitude":"#, to: &out)
        append(number: location.latitude, to: &out)
        append(raw: #","longitude":"#, to: &out)
        append(number: location.longitude, to: &out)
        append(raw: #","mapString":"#, to: &out)
        append(string: location.mapString, to: &out)
        append(raw: #","mediaURL":"#, to: &out)
        append(string: location.mediaURL, to: &out)
        append(raw: #","objectId":"#, to: &out)
    }

    /// From `,"uniqueKey":` to the end.
    private static func appendFromUniqueKey(_ location: StudentLocation, to out: inout [UInt8]) {
        append(raw: #","uniqueKey":"#, to: &out)
        append(string: location.uniqueKey, to: &out)
        append(raw: #","updatedAt":"#, to: &out)
        append(time: location.updatedAt, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func append(raw text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    /// A wire timestamp as a JSON string (its characters never need escaping).
    private static func append(time millis: Int64, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        WireTime.appendMillis(millis, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// A JSON string as JSONEncoder escapes it: `"` and `\` with a backslash, the control characters
    /// below U+0020 as `\b \t \n \f \r` or `\u00xx` (lowercase hex), everything else (`/`, DEL,
    /// U+2028, any script) as its UTF-8 bytes.
    static func append(string text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most strings need no escape: copy them whole.
            if bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                appendEscaping(bytes, to: &out)
            } else {
                out.append(contentsOf: bytes)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaping(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: Array(#"\u00"#.utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
    }

    /// A finite Double as JSONEncoder writes it: Swift's shortest round-trip form, without the
    /// `.0` of a whole number (`47`, `-0`, `1e-07`, `1e+21`).
    static func append(number value: Double, to out: inout [UInt8]) {
        let text = value.description
        if text.hasSuffix(".0") {
            out.append(contentsOf: text.utf8.dropLast(2))
        } else {
            out.append(contentsOf: text.utf8)
        }
    }
}
