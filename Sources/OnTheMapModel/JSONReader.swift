/// Reads JSON text (RFC 8259) into a `JSONValue` in one pass over its bytes, with a depth limit.
/// Every request body, `where` clause and imported file is read here, so the cost of refusing a
/// hostile document must grow with its size and nothing else: each byte is looked at a bounded
/// number of times, and nesting stops at `maxDepth` (Parse's own queries nest a handful of levels).
/// `JSONDecoder` decoding a value of unknown type tries each type in turn at every level, which
/// costs the cube of the depth: 2 KB of nested arrays took seconds.
public struct JSONReader {
    /// How deep arrays and objects may nest: far above any document this service reads.
    public static let maxDepth = 32

    /// Why a text is not a JSON document this service reads.
    public enum Failure: Error, Equatable, Sendable {
        /// Not JSON: the byte offset where reading stopped.
        case malformed(offset: Int)
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var offset = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// The document `text` holds: one value with nothing but whitespace around it.
    public static func read(_ text: some Collection<UInt8>, maxDepth: Int = maxDepth) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure>? = text.withContiguousStorageIfAvailable { read(buffer: $0, maxDepth: maxDepth) }
        switch result ?? Array(text).withUnsafeBufferPointer({ read(buffer: $0, maxDepth: maxDepth) }) {
        case .success(let value): return value
        case .failure(let failure): throw failure
        }
    }

    private static func read(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<JSONValue, Failure> {
        var reader = JSONReader(buffer, maxDepth: maxDepth)
        do throws(Failure) {
            reader.skipWhitespace()
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.offset == buffer.count else { throw reader.malformed }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    private var malformed: Failure { .malformed(offset: offset) }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    /// The value starting here; `depth` counts the arrays and objects around it.
    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard let byte = current else { throw malformed }
        switch byte {
        case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw malformed
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw malformed }
        for index in 0..<count where bytes[offset + index] != word.utf8Start[index] { throw malformed }
        offset += count
    }

    private mutating func array(depth: Int) throws(Failure) -> [JSONValue] {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
        offset += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") { offset += 1; return elements }
        while true {
            elements.append(try value(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1; skipWhitespace()
            case UInt8(ascii: "]"): offset += 1; return elements
            default: throw malformed
            }
        }
    }

    /// An object's members; a name given twice keeps its last value, as `JSONDecoder` did.
    private mutating func object(depth: Int) throws(Failure) -> [String: JSONValue] {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
        offset += 1
        skipWhitespace()
        var members: [String: JSONValue] = [:]
        if current == UInt8(ascii: "}") { offset += 1; return members }
        while true {
            guard current == UInt8(ascii: "\"") else { throw malformed }
            let name = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw malformed }
            offset += 1
            skipWhitespace()
            members[name] = try value(depth: depth)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): offset += 1; skipWhitespace()
            case UInt8(ascii: "}"): offset += 1; return members
            default: throw malformed
            }
        }
    }

    /// A string from its opening quote; its text must be UTF-8, and escapes well formed (a
    /// surrogate only in a pair).
    private mutating func string() throws(Failure) -> String {
        offset += 1
        let start = offset
        // Most strings have no escape: their bytes are the text.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw malformed }
            offset += 1
        }
        guard let stop = current else { throw malformed }
        if stop == UInt8(ascii: "\"") {
            offset += 1
            return try text(UnsafeBufferPointer(rebasing: bytes[start..<(offset - 1)]))
        }
        var unescaped = Array(bytes[start..<offset])
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return try unescaped.withUnsafeBufferPointer { (buffer) throws(Failure) in try text(buffer) }
            case UInt8(ascii: "\\"):
                offset += 1
                try escape(into: &unescaped)
            case ..<0x20:
                throw malformed
            default:
                unescaped.append(byte)
                offset += 1
            }
        }
        throw malformed
    }

    private func text(_ utf8: UnsafeBufferPointer<UInt8>) throws(Failure) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw malformed }
        return text
    }

    /// The escape after a backslash, appended as UTF-8.
    private mutating func escape(into output: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw malformed }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hexQuad())
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else { throw malformed }
                offset += 2
                let low = UInt32(try hexQuad())
                guard (0xDC00..<0xE000).contains(low) else { throw malformed }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw malformed }
            output.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw malformed
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt16 {
        guard bytes.count - offset >= 4 else { throw malformed }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw malformed
            }
            value = value << 4 | UInt16(digit)
            offset += 1
        }
        return value
    }

    /// A number in JSON's grammar, as a finite `Double` (one too large for it is refused, as
    /// `JSONDecoder` refused it).
    private mutating func number() throws(Failure) -> Double {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        guard let first = current, isDigit(first) else { throw malformed }
        offset += 1
        // JSON forbids leading zeros: "0" stands alone before the fraction or exponent.
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            offset += 1
            guard let digit = current, isDigit(digit) else { throw malformed }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard let digit = current, isDigit(digit) else { throw malformed }
            skipDigits()
        }
        // The text is in JSON's grammar now, which Double's reads the same (glibc's strtod, linear in
        // the digits even for 64 KiB of them).
        guard let number = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)), number.isFinite else {
            throw .malformed(offset: start)
        }
        return number
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { offset += 1 }
    }
}

extension JSONValue {
    /// Parses bytes as JSON (`JSONReader`); nil when they are not JSON or nest too deep.
    public static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        try? JSONReader.read(bytes)
    }
}
