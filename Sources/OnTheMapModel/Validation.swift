/// The rules for what a client may write (docs/API.md, "StudentLocation" and "Passwords"; each field's
/// rule is in its schema in openapi.json).
public enum Validation {
    public static let maxMediaURLLength = 2048
    public static let maxMapStringLength = 200
    public static let maxNameLength = 100

    /// An `http`/`https` link with a host. A bare host such as `www.example.com` gets `https://`;
    /// any other scheme (`javascript:`, `data:`, `file:`, `mailto:` …) is refused.
    public static func mediaURL(_ raw: String) throws(APIError) -> String {
        let text = raw.trimmingASCIIWhitespace()
        guard !text.isEmpty else { throw .validation("mediaURL", "mediaURL is required.") }
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || isControl($0) }) else {
            throw .validation("mediaURL", "mediaURL must not contain spaces or control characters.")
        }
        let candidate: String
        if let scheme = schemePrefix(of: text) {
            guard scheme == "http" || scheme == "https" else {
                throw .validation("mediaURL", "mediaURL must be an http or https link.")
            }
            candidate = text
        } else {
            candidate = "https://" + text
        }
        guard let url = WebURL(candidate) else {
            throw .validation("mediaURL", "mediaURL must be an http or https link with a host, like https://example.com.")
        }
        guard candidate.utf8.count <= maxMediaURLLength else {
            throw .validation("mediaURL", "mediaURL must be at most \(maxMediaURLLength) characters.")
        }
        return url.normalized
    }

    /// 1–200 characters once trimmed, without NUL (which PostgreSQL cannot store); stored as sent.
    public static func mapString(_ raw: String) throws(APIError) -> String {
        let length = raw.trimmingWhitespace().count
        guard length >= 1 else { throw .validation("mapString", "mapString must not be empty.") }
        guard !raw.contains("\u{0}") else { throw .validation("mapString", "mapString must not contain the NUL character.") }
        guard length <= maxMapStringLength else {
            throw .validation("mapString", "mapString must be at most \(maxMapStringLength) characters.")
        }
        return raw
    }

    /// A finite latitude in [-90, 90].
    public static func latitude(_ value: Double) throws(APIError) -> Double {
        guard value.isFinite, (-90...90).contains(value) else {
            throw .validation("latitude", "latitude must be a number between -90 and 90.")
        }
        return value
    }

    /// A finite longitude in [-180, 180].
    public static func longitude(_ value: Double) throws(APIError) -> Double {
        guard value.isFinite, (-180...180).contains(value) else {
            throw .validation("longitude", "longitude must be a number between -180 and 180.")
        }
        return value
    }

    /// A person's name at sign-up: 1–100 characters, no control characters; surrounding spaces trimmed.
    public static func personName(_ raw: String, field: String) throws(APIError) -> String {
        let name = raw.trimmingWhitespace()
        guard !name.isEmpty else { throw .validation(field, "\(field) must not be empty.") }
        return try label(name, field: field)!
    }

    /// A name another system gave (a sign-in provider's claims), made storable rather than refused:
    /// control and invisible formatting characters dropped, trimmed, cut to `maxNameLength`.
    public static func nameFromElsewhere(_ raw: String?) -> String {
        let kept = (raw ?? "").unicodeScalars.filter { !isControl($0) && $0.properties.generalCategory != .format }
        return String(String(String.UnicodeScalarView(kept)).trimmingWhitespace().prefix(maxNameLength))
    }

    /// A short free-text label written with a location (names, legacy `uniqueKey`): at most 100
    /// characters, no control characters. Empty is allowed because legacy clients send it.
    public static func label(_ raw: String?, field: String) throws(APIError) -> String? {
        guard let raw else { return nil }
        guard raw.count <= maxNameLength else {
            throw .validation(field, "\(field) must be at most \(maxNameLength) characters.")
        }
        guard !raw.unicodeScalars.contains(where: isControl) else {
            throw .validation(field, "\(field) must not contain control characters.")
        }
        return raw
    }

    /// The form an address is stored and looked up in: trimmed and lowercased, so that one person
    /// gets one account however they type it.
    public static func normalizedEmail(_ raw: String) -> String {
        raw.trimmingWhitespace().lowercased()
    }

    /// An email address, normalized, that looks like one.
    public static func email(_ raw: String) throws(APIError) -> String {
        let email = normalizedEmail(raw)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !email.unicodeScalars.contains(where: { $0.properties.isWhitespace || isControl($0) })
        else { throw .validation("email", "email must be an address like name@example.com.") }
        return email
    }

    /// A password of 8–128 characters (ASVS 5.0 asks that at least 64 be allowed). Any character is
    /// kept, NUL included: the hasher takes every byte (`PasswordScheme`).
    public static func password(_ raw: String) throws(APIError) -> String {
        guard raw.count >= 8 else { throw .validation("password", "password must be at least 8 characters.") }
        guard raw.count <= 128 else { throw .validation("password", "password must be at most 128 characters.") }
        return raw
    }

    /// The lowercased scheme when `text` starts with one. `host:8080/path` is a host with a port,
    /// not a scheme, because what follows the colon is a digit.
    static func schemePrefix(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, isASCIILetter(first),
              scheme.unicodeScalars.allSatisfy({ isASCIILetter($0) || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0) })
        else { return nil }
        let rest = text[text.index(after: colon)...]
        if !text.contains("://"), let next = rest.first, next.isASCII, next.isNumber { return nil }
        return scheme.lowercased()
    }

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}

extension String {
    /// Trims Unicode whitespace and newlines at both ends.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[start...end])
    }

    /// Trims ASCII spaces, tabs and line breaks at both ends.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[start...end])
    }
}
