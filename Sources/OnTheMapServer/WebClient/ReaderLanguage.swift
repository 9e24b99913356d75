import Foundation
import Hummingbird

/// The language the page is first sent in, chosen from the request as the client chooses it
/// (js/i18n.js `chooseLanguage`): the reader's own choice, which the client keeps in a cookie as
/// well as in its storage, else the first of the browser's languages (`Accept-Language`, best
/// first) that a catalogue serves, else English. The two implementations are held to one table of
/// cases (scripts/test/web/language-matches.json), read by a Swift suite and a node test.
struct ReaderLanguage {
    /// The cookie js/i18n.js sets when a reader picks a language.
    static let cookieName = "otm_language"
    static let fallback = "en"

    /// The catalogues' codes (`pt-BR`, `zh-CN`, …).
    let codes: [String]

    /// Where the client's catalogues are served, one module per language: `/js/locales/<code>.js`.
    static let catalogueFolder = "/js/locales/"
    static func catalogue(_ code: String) -> String { catalogueFolder + code + ".js" }

    /// The codes of the catalogues among the client's files (by URL path).
    static func codes(servedAt paths: some Sequence<String>) -> [String] {
        paths.filter { $0.hasPrefix(catalogueFolder) && $0.hasSuffix(".js") }
            .map { String($0.dropFirst(catalogueFolder.count).dropLast(".js".count)) }.sorted()
    }

    func choose(for request: Request) -> String {
        if let chosen = request.cookies[Self.cookieName]?.value, codes.contains(chosen) { return chosen }
        return choose(acceptLanguage: request.headers[.acceptLanguage])
    }

    func choose(acceptLanguage header: String?) -> String {
        for tag in Self.preferred(header) {
            if let code = match(tag) { return code }
        }
        return Self.fallback
    }

    /// The tags of `Accept-Language`, most wanted first (ties in the order written); `*` and tags
    /// refused with `q=0` left out.
    static func preferred(_ header: String?) -> [String] {
        guard let header else { return [] }
        let weighted = header.split(separator: ",").enumerated().compactMap { index, item -> (String, Double, Int)? in
            let pieces = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty, tag != "*" else { return nil }
            let quality = pieces.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0 ? (tag, quality, index) : nil
        }
        return weighted.sorted { ($0.1, -$0.2) > ($1.1, -$1.2) }.map(\.0)
    }

    /// The code that serves a reader asking for `tag`, as js/i18n.js `matchLanguage`: the same tag
    /// whatever its case, else the same primary language (`pt-PT` → `pt-BR`); Chinese by script,
    /// Simplified only (a reader of Traditional is not offered Simplified).
    func match(_ tag: String) -> String? {
        let lower = tag.lowercased().replacingOccurrences(of: "_", with: "-")
        if let exact = codes.first(where: { $0.lowercased() == lower }) { return exact }
        let parts = lower.split(separator: "-").map(String.init)
        guard let first = parts.first else { return nil }
        let primary = Self.aliases[first] ?? first
        if primary == "zh" {
            let traditional = parts.contains("hant") || (parts.count > 1 && ["tw", "hk", "mo"].contains(parts[1]) && !parts.contains("hans"))
            return !traditional && codes.contains("zh-CN") ? "zh-CN" : nil
        }
        return codes.first { $0.lowercased().split(separator: "-").first.map(String.init) == primary }
    }

    /// Two-letter codes older systems still send (Java and Android say `in`).
    private static let aliases = ["in": "id"]

    /// Whether `code` is written right to left (its page gets `dir="rtl"`).
    static func isRightToLeft(_ code: String) -> Bool {
        Locale.Language(identifier: code).characterDirection == .rightToLeft
    }
}
