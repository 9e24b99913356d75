import Crypto
import Foundation
import Hummingbird
import OnTheMapModel

/// The page's first answer (`/`), made for the request, so that a phone on a slow network has its
/// first screen after one more round of requests, not five: each round waits a full latency
/// (562.5 ms on Chromium's Slow 4G preset). The request says what the page needs:
///
/// - the reader's language (`ReaderLanguage`): the page comes with `lang` and `dir` set and names
///   that language's catalogue beside the scripts, instead of the script finding the language and
///   only then asking for the catalogue;
/// - whether a session cookie came: without one the login form is shown by the page itself, and
///   the script that submits it is named beside it; with one the page names the two answers the
///   first screen shows (who is logged in, the latest posts), which are asked for with the scripts:
///   at the course the reader last chose (`CourseChoice`'s cookie), else the default course.
///
/// It also carries its styles (app.css, allowed by its digest in the Content-Security-Policy:
/// they arrive while the browser waits for the scripts' first bytes, so the form is painted
/// styled a round earlier) and the client's settings (`/config.json`'s bytes, which the login
/// form's sign-in buttons need). Every variant is made once, at start: 12 languages × 2; a
/// signed-in reader's page for another course, when first asked for (`coursePages`).
struct FirstPage: Sendable {
    struct Variant: Hashable, Sendable {
        let language: String
        let signedIn: Bool
        /// The course whose answers a signed-in page preloads; nil for the default course.
        var course: CourseSlug? = nil
    }

    /// The script the page runs and the files it imports, however deep.
    struct Scripts: Sendable {
        let entry: String
        let preloads: [String]
    }

    let reader: ReaderLanguage
    /// `sha256-<base64>` of the page's `<style>` text, for the Content-Security-Policy's `style-src`.
    let styleDigest: String
    private let pages: [Variant: StaticAsset]
    /// Signed-in pages that preload another course's answers, made when first asked for.
    private let coursePages: BoundedCache<Variant, StaticAsset>
    private let parts: Parts
    private let contentType: String

    /// Fails at start when the page lacks a place an edit needs (it was changed without this).
    init(template: String, scripts: Scripts, style: String, clientConfiguration: Data, languages: [String], contentType: String) throws {
        reader = ReaderLanguage(codes: languages)
        styleDigest = Self.digest(style)
        let parts = try Parts(template: template, scripts: scripts, style: style, clientConfiguration: clientConfiguration)
        var pages: [Variant: StaticAsset] = [:]
        for language in languages {
            for signedIn in [false, true] {
                let variant = Variant(language: language, signedIn: signedIn)
                pages[variant] = try StaticAsset(bytes: Array(parts.render(variant).utf8), contentType: contentType)
            }
        }
        self.pages = pages
        coursePages = BoundedCache(limit: Self.coursePageLimit)
        self.parts = parts
        self.contentType = contentType
    }

    /// Course pages kept: a page is some 40 KB, so a few megabytes at most.
    static let coursePageLimit = 64

    func variant(for request: Request) -> Variant {
        let signedIn = SessionCookies.sessionToken(in: request) != nil
        return Variant(language: reader.choose(for: request), signedIn: signedIn, course: signedIn ? CourseChoice.course(in: request) : nil)
    }

    func page(for request: Request) -> StaticAsset {
        let variant = variant(for: request)
        if variant.course == nil { return pages[variant]! }
        if let page = coursePages[variant] { return page }
        // Made at start for every language, so this cannot fail; if it did, the default course's
        // page is still right (its script finds the chosen course itself).
        guard let page = try? StaticAsset(bytes: Array(parts.render(variant).utf8), contentType: contentType) else {
            return pages[Variant(language: variant.language, signedIn: true)]!
        }
        coursePages[variant] = page
        return page
    }

    /// Every variant (the server compresses them all after start).
    var allPages: [StaticAsset] { Array(pages.values) }

    /// What the page's answer varies by, besides its encoding.
    static let vary = "Accept-Encoding, Accept-Language, Cookie"

    /// The attribute the client reads the server's choice of language from (js/i18n.js), and the
    /// one that keeps the page's English text unseen until the catalogue has replaced it (app.css).
    static let languageAttribute = "data-language"
    static let untranslatedAttribute = "data-untranslated"

    /// The page an LTI launch answers with (`LaunchDocument`): signed in, at `course`, with the
    /// launch's session in a data block (`launchSessionID`) for the script to send as a bearer
    /// token, since a platform's frame may keep no cookie of ours. Its answers are not preloaded:
    /// the preloads would go with cookies, not the token. Made for each launch, never kept.
    func launchPage(language: String, course: CourseSlug?, session: String) -> String {
        parts.render(Variant(language: language, signedIn: true, course: course), launchSession: session)
    }

    /// The id of the launch's data block, which js/launch-session.js reads.
    static let launchSessionID = "launch-session"

    /// The page of `variant` made from `template` (for a test: the server makes its `Parts` once).
    static func render(
        _ template: String, _ variant: Variant, scripts: Scripts, style: String, clientConfiguration: Data, launchSession: String? = nil
    ) throws -> String {
        try Parts(template: template, scripts: scripts, style: style, clientConfiguration: clientConfiguration)
            .render(variant, launchSession: launchSession)
    }

    /// What every variant is made of, checked and prepared once.
    private struct Parts: Sendable {
        let template: FirstPageTemplate
        let scripts: Scripts
        let style: String
        /// The client's settings as the page's data block holds them.
        let configuration: String

        init(template: String, scripts: Scripts, style: String, clientConfiguration: Data) throws {
            guard !style.lowercased().contains("</style") else {
                throw StaticAssetLoader.LoadError(description: "app.css must not contain `</style`: the page carries it in a <style> element")
            }
            self.template = try FirstPageTemplate(template)
            self.scripts = scripts
            self.style = style
            configuration = FirstPage.dataBlockText(String(decoding: clientConfiguration, as: UTF8.self))
        }

        func render(_ variant: Variant, launchSession: String? = nil) -> String {
            template.filled { place in
                switch place {
                case .html: htmlElement(variant.language)
                case .entryScript: head(variant, launchSession: launchSession)
                // After what the head names, so that the browser asks for those before this has arrived.
                case .headEnd: "<style>\(style)</style>\n</head>"
                // Without a session the page shows the login form itself, not the loading note.
                case .loginScreen: variant.signedIn ? nil : "<main id=\"login-screen\" class=\"auth-screen\">"
                case .bootLoading: variant.signedIn ? nil : "<div id=\"boot-loading\" class=\"boot-loading\" role=\"status\" hidden>"
                }
            }
        }

        private func htmlElement(_ code: String) -> String {
            let direction = ReaderLanguage.isRightToLeft(code) ? "rtl" : "ltr"
            let untranslated = code == ReaderLanguage.fallback ? "" : " \(FirstPage.untranslatedAttribute)"
            return "<html lang=\"\(code)\" dir=\"\(direction)\" \(FirstPage.languageAttribute)=\"\(code)\"\(untranslated)>"
        }

        private func head(_ variant: Variant, launchSession: String?) -> String {
            let code = variant.language
            var head = ["<script src=\"\(scripts.entry)\" type=\"module\"></script>"]
            head += scripts.preloads.map { "<link rel=\"modulepreload\" href=\"\($0)\">" }
            if code != ReaderLanguage.fallback { head.append("<link rel=\"modulepreload\" href=\"\(ReaderLanguage.catalogue(code))\">") }
            if variant.signedIn, launchSession == nil {
                // Fetched by js/loader.js with the same URL and credentials, which is what lets the
                // browser hand it the preloaded answer.
                let base = variant.course.map(CourseMount.path(of:)) ?? ""
                head += [APIOperation.me.path, APIOperation.v1List.path].map { "<link rel=\"preload\" href=\"\(base)\($0)\" as=\"fetch\" crossorigin>" }
            }
            head.append("<script type=\"application/json\" id=\"client-config\">\(configuration)</script>")
            if let launchSession {
                head.append("<script type=\"application/json\" id=\"\(FirstPage.launchSessionID)\">\(FirstPage.dataBlockText(launchSession))</script>")
            }
            return head.joined(separator: "\n  ")
        }
    }

    /// `text` as a data block holds it: a data block is never run, so the Content-Security-Policy
    /// has nothing to allow, and `<` is escaped so that no value can close the element.
    static func dataBlockText(_ text: String) -> String {
        text.replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// `sha256-<base64>` of `text`'s UTF-8, as a Content-Security-Policy source names an inline element.
    static func digest(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Array(text.utf8))).base64EncodedString()
    }
}
