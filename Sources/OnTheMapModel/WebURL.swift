/// A strict reading of an absolute `http`/`https` link: scheme, `://`, an authority with a non-empty
/// host and an optional numeric port, then anything. Hand-written rather than Foundation's `URL` so that
/// links with non-ASCII hosts or paths (which students do paste) are judged the same on every platform.
struct WebURL {
    /// The link with its scheme lowercased; everything else exactly as given.
    let normalized: String

    init?(_ text: String) {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let afterScheme = text[separator.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard let host = Self.host(of: authority) else { return nil }
        guard Self.isValidHost(host) else { return nil }
        normalized = scheme + text[separator.lowerBound...]
    }

    /// The host part of an authority, after checking the optional port.
    private static func host(of authority: Substring) -> Substring? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || isPort(rest) else { return nil }
            return authority[...close]
        }
        guard let colon = authority.firstIndex(of: ":") else { return authority }
        guard isPort(authority[colon...]) else { return nil }
        return authority[..<colon]
    }

    /// `:` followed by 1–5 digits up to 65535.
    private static func isPort(_ text: Substring) -> Bool {
        let digits = text.dropFirst()
        guard text.first == ":", (1...5).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(digits) else { return false }
        return port <= 65535
    }

    /// A registered name (letters in any script, digits, `-`, `.`, `_`, `~`) or a bracketed IPv6
    /// literal; no empty labels except a trailing dot.
    private static func isValidHost(_ host: Substring) -> Bool {
        if host.hasPrefix("[") {
            return host.count > 2 && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        guard !host.isEmpty, !host.hasPrefix("."), !host.contains("..") else { return false }
        return host.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" || $0 == "~" }
    }
}
