import Foundation
import NIOCore

/// Reads tab-separated rows straight from bytes: no `String` per field, one reused array of
/// field ranges per file. Loading a million names must not allocate a million strings.
struct TSVReader {
    /// Complete lines of a file's text, read where they were decompressed.
    let bytes: ByteBuffer

    /// A row: the file's bytes and where each field lies in them.
    struct Row {
        let bytes: UnsafeBufferPointer<UInt8>
        let fields: [Range<Int>]

        func string(_ field: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[fields[field]]), as: UTF8.self)
        }

        func bytes(_ field: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[fields[field]]) }

        func int(_ field: Int) -> Int {
            var value = 0
            var negative = false
            for byte in bytes[fields[field]] {
                if byte == UInt8(ascii: "-") { negative = true; continue }
                guard (48...57).contains(byte) else { break }
                value = value * 10 + Int(byte - 48)
            }
            return negative ? -value : value
        }

        /// Plain decimals ("-37.8136") straight from the bytes: an exact integer over an exact power
        /// of ten, which division rounds as `Double(String)` does, without a string per field.
        /// Anything else (exponents, more than 15 digits) goes through `Double(String)`.
        func double(_ field: Int) -> Double {
            var mantissa: UInt64 = 0
            var digits = 0
            var decimals: Int?
            var negative = false
            for (offset, byte) in bytes[fields[field]].enumerated() {
                switch byte {
                case 48...57:
                    mantissa = mantissa * 10 + UInt64(byte - 48)
                    digits += 1
                    if let places = decimals { decimals = places + 1 }
                case UInt8(ascii: "-") where offset == 0: negative = true
                case UInt8(ascii: "."): if decimals == nil { decimals = 0 } else { return Double(string(field)) ?? 0 }
                default: return Double(string(field)) ?? 0
                }
            }
            guard digits > 0, digits <= 15 else { return Double(string(field)) ?? 0 }
            let value = Double(mantissa) / Self.powersOfTen[decimals ?? 0]
            return negative ? -value : value
        }

        private static let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }

        /// The `|`-separated items of a list field.
        func forEachItem(_ field: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            var start = fields[field].lowerBound
            for index in fields[field] where bytes[index] == UInt8(ascii: "|") {
                if index > start { body(UnsafeBufferPointer(rebasing: bytes[start..<index])) }
                start = index + 1
            }
            if fields[field].upperBound > start { body(UnsafeBufferPointer(rebasing: bytes[start..<fields[field].upperBound])) }
        }
    }

    /// Calls `body` with every row; throws `mismatch` when a row does not have `columns` fields.
    func forEachRow(columns: Int, mismatch: (Int) -> any Error, _ body: (Row) throws -> Void) throws {
        try bytes.withUnsafeReadableBytes { raw in
            let buffer = raw.assumingMemoryBound(to: UInt8.self)
            var fields: [Range<Int>] = []
            fields.reserveCapacity(columns)
            var lineStart = 0
            var fieldStart = 0
            for index in 0...buffer.count {
                let byte = index < buffer.count ? buffer[index] : UInt8(ascii: "\n")
                if byte == UInt8(ascii: "\t") {
                    fields.append(fieldStart..<index)
                    fieldStart = index + 1
                } else if byte == UInt8(ascii: "\n") {
                    if index > lineStart {
                        fields.append(fieldStart..<index)
                        guard fields.count == columns else { throw mismatch(fields.count) }
                        try body(Row(bytes: buffer, fields: fields))
                    }
                    fields.removeAll(keepingCapacity: true)
                    lineStart = index + 1
                    fieldStart = index + 1
                }
            }
        }
    }
}
