import OnTheMapModel

/// A course request's body: an object of the fields named, each of its type, or a 400 naming
/// the field. A field sent as null counts as not sent.
struct CourseFields {
    private let fields: [String: JSONValue]

    init(_ value: JSONValue, allowed: Set<String>, required: Set<String> = []) throws(APIError) {
        guard let object = value.object else { throw .invalidJSON() }
        for name in object.keys where !allowed.contains(name) {
            throw .validation(name, "\(name) is not a field of this request; send \(allowed.sorted().joined(separator: ", ")).")
        }
        fields = object.filter { $0.value != .null }
        for name in required.sorted() where fields[name] == nil { throw .validation(name, "\(name) is missing.") }
        if fields.isEmpty { throw .validation(allowed.sorted()[0], "Send at least one of \(allowed.sorted().joined(separator: ", ")).") }
    }

    func string(_ name: String) throws(APIError) -> String? {
        switch fields[name] {
        case nil: return nil
        case .string(let text)?: return text
        default: throw .incorrectType(name, expected: "text")
        }
    }

    func bool(_ name: String) throws(APIError) -> Bool? {
        switch fields[name] {
        case nil: return nil
        case .bool(let flag)?: return flag
        default: throw .incorrectType(name, expected: "true or false")
        }
    }

    /// One of an enumeration's raw values.
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _: Choice.Type) throws(APIError) -> Choice?
    where Choice.RawValue == String {
        guard let text = try string(name) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            throw .validation(name, "\(name) must be one of: \(Choice.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return choice
    }
}
