import Foundation
import OnTheMapModel
import Testing

/// Every JSON the server reads is read in time linear in its size, with a depth
/// limit, and reads what RFC 8259 says and nothing else.
@Suite struct JSONReaderTests {
    func read(_ text: String) throws(JSONReader.Failure) -> JSONValue { try JSONReader.read(Array(text.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        #expect(try read(#" {"a": [1, -2.5e3, true, false, null, "x"], "b": {}, "c": []} "#) == .object([
            "a": .array([.number(1), .number(-2500), .bool(true), .bool(false), .null, .string("x")]),
            "b": .object([:]), "c": .array([]),
        ]))
        #expect(try read("0") == .number(0))
        #expect(try read("-0.0e+0") == .number(0))
        #expect(try read("1E2") == .number(100))
        #expect(try read(#""""#) == .string(""))
        #expect(try read("\t\r\n null \n") == .null)
    }

    @Test func readsEscapesAndEveryScript() throws {
        #expect(try read(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try read(#""caf\u00e9 \u6771\u4eac \ud83d\uDE00""#) == .string("café 東京 😀"))
        #expect(try read(#""Zürich, Αθήνα, القاهرة""#) == .string("Zürich, Αθήνα, القاهرة"))
    }

    @Test func aNameGivenTwiceKeepsItsLastValue() throws {
        #expect(try read(#"{"a": 1, "a": 2}"#) == .object(["a": .number(2)]))
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", "[,1]", #"{"a":1,}"#, #"{"a" 1}"#, "{a:1}", "[1 2]", "01", "-", "1.", ".5", "1e", "+1",
        "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "tru", "nulll", "[1]x", "'a'", #""a"#, #""\x""#, #""\u12""#,
        #""\ud800""#, #""\ud800\u0041""#, #""\udc00""#, "\"tab\there\"", "\"new\nline\"", "0x10", "[1]]", #"{"a":1}}"#,
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(throws: JSONReader.Failure.self, "\(text)") { try read(text) }
    }

    @Test func refusesTextThatIsNotUTF8() {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        #expect(throws: JSONReader.Failure.self) { try JSONReader.read(bytes) }
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        #expect(throws: JSONReader.Failure.self) { try JSONReader.read(overlong) }
    }

    @Test func nestingStopsAtTheLimit() throws {
        let limit = JSONReader.maxDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try read(deepest) }
        let deeper = "[" + deepest + "]"
        #expect(throws: JSONReader.Failure.tooDeep(limit: limit)) { try read(deeper) }
        let objects = String(repeating: #"{"a":"#, count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        #expect(throws: JSONReader.Failure.tooDeep(limit: limit)) { try read(objects) }
        // Unclosed: refused as too deep as soon as the limit is passed, without reading the rest.
        #expect(throws: JSONReader.Failure.tooDeep(limit: limit)) { try read(String(repeating: "[", count: 64 * 1024)) }
    }

    @Test func readsBackWhatItsOwnWriterWrote() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let value = Self.randomValue(depth: 0, using: &generator)
            #expect(try read(Self.text(of: value)) == value)
        }
    }

    /// The hostile shapes of `HostileJSON` at 64 KiB, each read in well under a tenth of a second of
    /// this thread's CPU (about a millisecond each in a release build, measured by `make bench`);
    /// `JSONDecoder` took seconds for 2 KB of nested arrays.
    @Test(arguments: HostileJSON.Shape.allCases)
    func everyHostileShapeCostsLittle(shape: HostileJSON.Shape) {
        let body = HostileJSON.body(shape, bytes: 64 * 1024)
        #expect(body.count >= 60 * 1024 && body.count <= 64 * 1024, "\(shape): \(body.count) bytes")
        let before = Self.threadCPU()
        _ = try? JSONReader.read(body)
        let spent = Self.threadCPU() - before
        #expect(spent < 0.1, "\(shape) took \(spent) s of CPU")
    }

    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func randomValue(depth: Int, using generator: inout SystemRandomNumberGenerator) -> JSONValue {
        let strings = ["", "a", "São Paulo", "\"quoted\"\\", "\u{01}\u{1F}", "東京 😀", "line\nbreak"]
        switch Int.random(in: 0..<(depth < 4 ? 8 : 5), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 64)
        case 3: return .number(Double.random(in: -1e300...1e300, using: &generator))
        case 4: return .string(strings.randomElement(using: &generator)!)
        case 5, 6:
            return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                members[strings.randomElement(using: &generator)! + "\(index)"] = randomValue(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }

    /// JSON text for `value`, written apart from the reader (numbers with Swift's shortest
    /// round-tripping description, every non-ASCII character escaped half the time).
    static func text(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return "\(number)".replacingOccurrences(of: "e+", with: "e")
        case .string(let string): return quoted(string)
        case .array(let items): return "[" + items.map(text(of:)).joined(separator: " , ") + "]"
        case .object(let members): return "{" + members.map { "\(quoted($0.key)):\(text(of: $0.value))" }.joined(separator: ",\n") + "}"
        }
    }

    static func quoted(_ string: String) -> String {
        var out = "\""
        let escapeAll = Bool.random()
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A where Bool.random(): out += "\\n"
            case ..<0x20, 0x80... where escapeAll || scalar.value < 0x20:
                for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The worst documents of each shape at a given size (scripts/test/hostile_json.py sends the same
/// shapes to a live server).
enum HostileJSON {
    enum Shape: String, CaseIterable, Sendable {
        case deepArrays, deepObjects, wideArray, manyKeys, manySmallObjects, longString, manyEscapes, manySurrogatePairs,
             longNumber, longExponent, whitespace
    }

    static func body(_ shape: Shape, bytes size: Int) -> [UInt8] {
        func repeated(_ head: String, _ unit: String, _ tail: String) -> [UInt8] {
            let count = (size - head.utf8.count - tail.utf8.count) / unit.utf8.count
            return Array((head + String(repeating: unit, count: count) + tail).utf8)
        }
        switch shape {
        case .deepArrays: return repeated("", "[", "")
        case .deepObjects: return repeated("", #"{"a":"#, "")
        case .wideArray: return repeated("[", "0,", "0]")
        case .manyKeys:
            var text = "{"
            var index = 0
            while text.utf8.count < size - 16 { text += #""k\#(index)":0,"#; index += 1 }
            return Array((text + #""end":0}"#).utf8)
        case .manySmallObjects: return repeated("[", "{},", "{}]")
        case .longString: return repeated("\"", "a", "\"")
        case .manyEscapes: return repeated("\"", #"\u00e9"#, "\"")
        case .manySurrogatePairs: return repeated("\"", #"\ud83d\ude00"#, "\"")
        case .longNumber: return repeated("1", "7", "")
        case .longExponent: return repeated("1e", "9", "")
        case .whitespace: return repeated("[", " ", "]")
        }
    }
}
