import OnTheMapModel

/// A keyed request's body in two parts: its passwords, and the rest. A JSON body is read as a
/// value, so that the same document sent with other spacing or member order is the same request;
/// every member whose name holds "password" (any case, at any depth: a login's, a sign-up's, a
/// new password's) goes to `passwords`. A body that is not JSON is its bytes.
struct RequestContent {
    /// Every left-out member's name and value, in a fixed order, as bytes.
    private(set) var passwords: [UInt8] = []
    /// The body without its passwords, as bytes that are the same exactly when the rest is.
    private(set) var rest: [UInt8] = []

    init(_ body: some Collection<UInt8>) {
        guard let value = try? JSONReader.read(body) else {
            rest = [0x00] + Array(body)
            return
        }
        rest = [0x01]
        append(value, to: \.rest)
    }

    /// Writes `value` into the part at `part`: a tag, then lengths before every text and count, and
    /// an object's members in name order.
    private mutating func append(_ value: JSONValue, to part: WritableKeyPath<RequestContent, [UInt8]>) {
        switch value {
        case .null: self[keyPath: part].append(0x6E)
        case .bool(let flag): self[keyPath: part] += [0x62, flag ? 1 : 0]
        case .number(let number):
            self[keyPath: part].append(0x64)
            withUnsafeBytes(of: number.bitPattern.bigEndian) { self[keyPath: part] += $0 }
        case .string(let text):
            self[keyPath: part].append(0x73)
            appendText(text, to: part)
        case .array(let items):
            self[keyPath: part].append(0x61)
            appendCount(items.count, to: part)
            for item in items { append(item, to: part) }
        case .object(let members):
            self[keyPath: part].append(0x6F)
            let sorted = members.sorted { $0.key < $1.key }
            let kept = sorted.filter { !Self.isPassword($0.key) }
            appendCount(kept.count, to: part)
            for (name, member) in sorted {
                let target: WritableKeyPath<RequestContent, [UInt8]> = Self.isPassword(name) ? \.passwords : part
                appendText(name, to: target)
                append(member, to: target)
            }
        }
    }

    private mutating func appendText(_ text: String, to part: WritableKeyPath<RequestContent, [UInt8]>) {
        appendCount(text.utf8.count, to: part)
        self[keyPath: part] += Array(text.utf8)
    }

    private mutating func appendCount(_ count: Int, to part: WritableKeyPath<RequestContent, [UInt8]>) {
        withUnsafeBytes(of: UInt64(count).bigEndian) { self[keyPath: part] += $0 }
    }

    static func isPassword(_ name: String) -> Bool { name.lowercased().contains("password") }
}
