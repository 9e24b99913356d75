import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import OnTheMapServer

/// The page's first answer is made for the request (WebClient/FirstPage.swift): the reader's
/// language from their cookie or `Accept-Language`, the login form shown by the page itself
/// without a session, and the first screen's two answers named beside the scripts with one.
@Suite struct FirstPageTests {
    private func page(_ server: TestServer, headers: HTTPFields = [:]) async throws -> (text: String, response: TestResponse) {
        let response = try await server.send(.get, "/", headers: headers)
        #expect(response.status == .ok)
        return (String(buffer: response.body), response)
    }

    @Test func withoutASessionThePageShowsTheLoginFormAndNamesWhatSubmitsIt() async throws {
        try await TestServer.run { server in
            let (text, response) = try await page(server)
            #expect(text.contains("<html lang=\"en\" dir=\"ltr\" data-language=\"en\">"))
            #expect(text.contains("<main id=\"login-screen\" class=\"auth-screen\">"))
            #expect(text.contains("<div id=\"boot-loading\" class=\"boot-loading\" role=\"status\" hidden>"))
            #expect(!text.contains("as=\"fetch\""))
            #expect(response.headers[.vary] == "Accept-Encoding, Accept-Language, Cookie")
            // The script and every file it imports are named by the page, and served.
            let entry = try #require(text.firstMatch(of: #/<script src="([^"]+)" type="module">/#)?.output.1)
            let preloads = text.matches(of: #/<link rel="modulepreload" href="([^"]+)">/#).map { String($0.output.1) }
            #expect(!preloads.isEmpty)
            for path in [String(entry)] + preloads {
                #expect(try await server.send(.get, path).status == .ok, "\(path)")
            }
            // No catalogue but English's, which the scripts hold.
            #expect(!preloads.contains { $0.hasPrefix("/js/locales/") })
            // The client's settings come with it, the same as /config.json's.
            let block = try #require(text.firstMatch(of: #/<script type="application/json" id="client-config">([^<]*)</script>/#)?.output.1)
            let served = try await server.send(.get, "/config.json")
            #expect(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? NSDictionary
                    == JSONSerialization.jsonObject(with: served.data) as? NSDictionary)
            // The styles come in the page, allowed by their digest; the page links no style sheet.
            let style = try #require(text.firstMatch(of: #/<style>([^<]*)</style>/#)?.output.1)
            #expect(String(buffer: try await server.send(.get, "/app.css").body) == style)
            #expect(response.headers[.contentSecurityPolicy]?.contains("style-src 'self' '\(FirstPage.digest(String(style)))';") == true)
            #expect(!text.contains("rel=\"stylesheet\""))
            // The map's code and styles wait until a map is wanted.
            #expect(!text.contains("/vendor/leaflet"))
            #expect(!text.contains("pin-map") && !text.contains("map-screens"))
        }
    }

    @Test func withASessionThePageNamesTheFirstScreensAnswers() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            let (text, _) = try await page(server, headers: student.cookieHeader)
            #expect(text.contains("<link rel=\"preload\" href=\"/v1/me\" as=\"fetch\" crossorigin>"))
            #expect(text.contains("<link rel=\"preload\" href=\"/v1/StudentLocation\" as=\"fetch\" crossorigin>"))
            #expect(text.contains("<main id=\"login-screen\" class=\"auth-screen\" hidden>"))
            #expect(text.contains("<div id=\"boot-loading\" class=\"boot-loading\" role=\"status\">"))
        }
    }

    @Test func theAnswersPreloadedAreThoseOfTheCourseTheReaderLastChose() async throws {
        try await TestServer.run { server in
            let student = try await server.signUp()
            var headers = student.cookieHeader
            headers[.cookie]! += "; \(CourseChoice.cookieName)=cs101-spring"
            let (text, _) = try await page(server, headers: headers)
            #expect(text.contains("<link rel=\"preload\" href=\"/c/cs101-spring/v1/me\" as=\"fetch\" crossorigin>"))
            #expect(text.contains("<link rel=\"preload\" href=\"/c/cs101-spring/v1/StudentLocation\" as=\"fetch\" crossorigin>"))
            #expect(!text.contains("href=\"/v1/me\""))
            let again = try await page(server, headers: headers)
            #expect(again.text == text, "made once, then kept")

            // A cookie that names no course's slug (or the default course) preloads the default course's.
            for value in ["default", "..%2F", "<script>", "A"] {
                var odd = student.cookieHeader
                odd[.cookie]! += "; \(CourseChoice.cookieName)=\(value)"
                let (plain, _) = try await page(server, headers: odd)
                #expect(plain.contains("<link rel=\"preload\" href=\"/v1/me\" as=\"fetch\" crossorigin>"), "\(value)")
            }
            // Logged out, the choice changes nothing: the login form shows.
            let (loggedOut, _) = try await page(server, headers: [.cookie: "\(CourseChoice.cookieName)=cs101-spring"])
            #expect(!loggedOut.contains("rel=\"preload\""))
        }
    }

    @Test func theCoursePagesKeptAreBounded() {
        let cache = BoundedCache<Int, String>(limit: 3)
        for key in 0..<10 { cache[key] = "\(key)" }
        #expect(cache.count == 3)
        #expect(cache[9] == "9", "the newest is kept")
        cache[9] = "nine"
        #expect(cache.count == 3 && cache[9] == "nine")
    }

    @Test(arguments: [
        ("nl, fr-CA;q=0.8, en;q=0.5", nil, "fr", "ltr"),
        ("en;q=0.5, ar-EG", nil, "ar", "rtl"),
        ("zh-TW, ja;q=0.4", nil, "ja", "ltr"),
        ("fr", "ar", "ar", "rtl"),
        ("de", "xx", "de", "ltr"),
        ("*", nil, "en", "ltr"),
        (nil, "pt-BR", "pt-BR", "ltr"),
    ] as [(String?, String?, String, String)])
    func theLanguageIsTheCookiesElseTheBrowsers(acceptLanguage: String?, cookie: String?, language: String, direction: String) async throws {
        try await TestServer.run { server in
            var headers: HTTPFields = [:]
            if let acceptLanguage { headers[.acceptLanguage] = acceptLanguage }
            if let cookie { headers[.cookie] = "\(ReaderLanguage.cookieName)=\(cookie)" }
            let (text, _) = try await page(server, headers: headers)
            let untranslated = language == "en" ? "" : " data-untranslated"
            #expect(text.contains("<html lang=\"\(language)\" dir=\"\(direction)\" data-language=\"\(language)\"\(untranslated)>"))
            #expect(text.contains("<link rel=\"modulepreload\" href=\"/js/locales/\(language).js\">") == (language != "en"))
        }
    }

    @Test func eachVariantHasItsOwnValidator() async throws {
        try await TestServer.run { server in
            let english = try await page(server).response
            let french = try await page(server, headers: [.acceptLanguage: "fr"]).response
            let englishTag = try #require(english.headers[.eTag])
            #expect(french.headers[.eTag] != englishTag)
            #expect(try await server.send(.get, "/", headers: [.ifNoneMatch: englishTag]).status == .notModified)
            #expect(try await server.send(.get, "/", headers: [.ifNoneMatch: englishTag, .acceptLanguage: "fr"]).status == .ok)
        }
    }

    @Test func aPageWithoutAPlaceForAnEditIsAStartUpError() throws {
        #expect {
            try FirstPage.render("<html lang=\"fr\"><body></body></html>", .init(language: "en", signedIn: false),
                                 scripts: .init(entry: "/js/main.js", preloads: []), style: "", clientConfiguration: Data("{}".utf8))
        } throws: { error in
            String(describing: error).contains("<html lang=\"en\">")
        }
    }

    @Test func theSettingsCannotCloseTheirElement() throws {
        let page = try FirstPage.render(
            "<html lang=\"en\"><head><script src=\"/js/main.js\" type=\"module\"></script></head>"
                + "<div id=\"boot-loading\" class=\"boot-loading\" role=\"status\"><main id=\"login-screen\" class=\"auth-screen\" hidden>",
            .init(language: "en", signedIn: false), scripts: .init(entry: "/js/main.js", preloads: []), style: "p { color: red }",
            clientConfiguration: Data(#"{"name":"</script><script>alert(1)</script>"}"#.utf8))
        #expect(!page.contains("</script><script>alert"))
        #expect(page.contains(#"\u003c/script>"#))
    }
}

/// The server chooses a language as the client does: both are held to one table of cases.
@Suite struct ReaderLanguageTests {
    struct Table: Decodable {
        let codes: [String]
        let matches: [[String?]]
    }

    private func table() throws -> Table {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/test/web/language-matches.json")
        return try JSONDecoder().decode(Table.self, from: Data(contentsOf: url))
    }

    @Test func matchesAsTheClientDoes() throws {
        let table = try table()
        let reader = ReaderLanguage(codes: table.codes)
        for pair in table.matches {
            #expect(reader.match(pair[0] ?? "") == pair[1], "\(pair[0] ?? "")")
        }
    }

    @Test func theTableNamesTheCataloguesServed() throws {
        let locales = try FileManager.default.contentsOfDirectory(
            atPath: WebController.bundledWebRoot.appendingPathComponent("js/locales").path)
        #expect(Set(locales.map { String($0.dropLast(".js".count)) }) == Set(try table().codes))
    }

    @Test(arguments: [
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", ["fr-CH", "fr", "en", "de"]),
        ("de;q=0.5, ja", ["ja", "de"]),
        ("en;q=0, es", ["es"]),
        ("a;q=0.5, b;q=0.5, c", ["c", "a", "b"]),
        (" , ;q=1, x-klingon;q=oops", ["x-klingon"]),
        ("", []),
    ])
    func acceptLanguageIsReadBestFirst(header: String, tags: [String]) {
        #expect(ReaderLanguage.preferred(header) == tags)
    }
}
