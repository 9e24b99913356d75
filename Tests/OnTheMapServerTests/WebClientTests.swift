import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import OnTheMapServer

/// The web client's files: served at `/` with the right types, gzip, ETags and security headers.
@Suite struct WebClientTests {
    @Test func indexIsServedAtTheRootAndByName() async throws {
        try await TestServer.run { server in
            let root = try await server.send(.get, "/")
            #expect(root.status == .ok)
            #expect(root.headers[.contentType] == "text/html; charset=utf-8")
            #expect(String(buffer: root.body).contains("<title>On The Map</title>"))
            let named = try await server.send(.get, "/index.html")
            #expect(named.body == root.body)
            #expect(named.headers[.eTag] == root.headers[.eTag])
        }
    }

    @Test(arguments: [
        ("/js/main.js", "text/javascript; charset=utf-8"),
        ("/app.css", "text/css; charset=utf-8"),
        ("/icon.svg", "image/svg+xml"),
        ("/basemap/world.json", "application/json; charset=utf-8"),
        ("/basemap/detail/13-2.json", "application/json; charset=utf-8"),
        ("/basemap/labels/ja/countries.json", "application/json; charset=utf-8"),
        ("/vendor/leaflet/leaflet.js", "text/javascript; charset=utf-8"),
        ("/vendor/leaflet/leaflet.markercluster.js", "text/javascript; charset=utf-8"),
        ("/vendor/leaflet/leaflet.css", "text/css; charset=utf-8"),
        ("/vendor/leaflet/images/layers.png", "image/png"),
    ])
    func filesHaveTheirContentType(path: String, contentType: String) async throws {
        try await TestServer.run { server in
            let response = try await server.send(.get, path)
            #expect(response.status == .ok, "\(path)")
            #expect(response.headers[.contentType] == contentType)
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(response.body.readableBytes > 0)
        }
    }

    @Test func securityHeadersForbidInlineCodeAndFraming() async throws {
        try await TestServer.run { server in
            for path in ["/", "/v1/StudentLocation", "/nope"] {
                let response = try await server.send(.get, path)
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("script-src 'self'"))
                #expect(policy.contains("style-src 'self'"))
                #expect(policy.contains("frame-ancestors 'none'"))
                #expect(policy.contains("object-src 'none'"))
                #expect(!policy.contains("unsafe-inline"))
                #expect(!policy.contains("unsafe-eval"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.referrerPolicy] == "no-referrer")
            }
        }
    }

    @Test func aCoursesEmbeddableMapAloneMayBeFramed() async throws {
        try await TestServer.run { server in
            let embed = try await server.send(.get, "/c/cs101/embed")
            #expect(embed.status == .ok)
            #expect(embed.headers[.contentType] == "text/html; charset=utf-8")
            #expect(embed.text.contains("/js/embed.js"))
            let policy = try #require(embed.headers[.contentSecurityPolicy])
            #expect(policy.contains("frame-ancestors *"))
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(embed.headers[.xFrameOptions] == nil)
            #expect(embed.headers[.xContentTypeOptions] == "nosniff")
            // Every other page, the course's own paths among them, still refuses every frame.
            for path in ["/", "/c/cs101/v1/StudentLocation", "/c/cs101/embed/x", "/embed.html", "/c/CS101/embed"] {
                let response = try await server.send(.get, path)
                #expect(response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true, "\(path)")
                #expect(response.headers[.xFrameOptions] == "DENY", "\(path)")
            }
            #expect(try await server.send(.get, "/embed.html").status == .notFound, "served only at a course's path")
            #expect(try await server.send(.get, "/c/CS101/embed").status == .notFound)
        }
    }

    @Test func gzipIsSentOnlyWhenAccepted() async throws {
        try await TestServer.run { server in
            let plain = try await server.send(.get, "/basemap/world.json")
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            let gzipped = try await server.send(.get, "/basemap/world.json", headers: [.acceptEncoding: "gzip, deflate, br"])
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            #expect(gzipped.body.readableBytes * 2 < plain.body.readableBytes)
            var compressed = gzipped.body
            let decompressed = try compressed.decompress(with: .gzip())
            #expect(decompressed == plain.body)
            #expect(gzipped.headers[.eTag] != plain.headers[.eTag])
            let refused = try await server.send(.get, "/basemap/world.json", headers: [.acceptEncoding: "gzip;q=0"])
            #expect(refused.headers[.contentEncoding] == nil)
        }
    }

    @Test func aCurrentCopyIsRevalidatedWith304() async throws {
        try await TestServer.run { server in
            let first = try await server.send(.get, "/js/main.js")
            let etag = try #require(first.headers[.eTag])
            let again = try await server.send(.get, "/js/main.js", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let stale = try await server.send(.get, "/js/main.js", headers: [.ifNoneMatch: "\"other\""])
            #expect(stale.status == .ok)
        }
    }

    @Test func headAnswersWithoutABodyAndOtherMethodsAre405() async throws {
        try await TestServer.run { server in
            let head = try await server.send(.head, "/app.css")
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            let post = try await server.send(.post, "/app.css", body: "x")
            #expect(post.status == .methodNotAllowed)
        }
    }

    @Test func precompressedAndUnknownFilesAreNotServed() async throws {
        try await TestServer.run { server in
            let precompressed = try await server.send(.get, "/vendor/leaflet/leaflet.js.gz")
            #expect(precompressed.status == .notFound)
            let brotli = try await server.send(.get, "/vendor/leaflet/leaflet.css.brotli")
            #expect(brotli.status == .notFound)
        }
    }

    /// A folder's files share one route: a file not in it is 404 to every method, in the native
    /// shape an unknown path gets, and a file in it is 405 to any method but GET and HEAD.
    @Test(arguments: [
        (HTTPRequest.Method.get, "/js/no-such-module.js", HTTPResponse.Status.notFound),
        (.head, "/basemap/detail/99-99.json", .notFound),
        (.post, "/basemap/detail/99-99.json", .notFound),
        (.delete, "/vendor/leaflet/images/none.png", .notFound),
        (.get, "/js/main.js/extra", .notFound),
        (.get, "/basemap/detail/13-2.json", .ok),
        (.put, "/basemap/detail/13-2.json", .methodNotAllowed),
        (.post, "/vendor/leaflet/images/layers.png", .methodNotAllowed),
    ])
    func aFolderAnswersForItsFilesAlone(method: HTTPRequest.Method, path: String, status: HTTPResponse.Status) async throws {
        try await TestServer.run { server in
            let response = try await server.send(method, path, body: method == .get || method == .head ? nil : "x")
            #expect(response.status == status, "\(method) \(path)")
            if status == .notFound, method != .head {
                #expect(try response.object()["error"] as? String == "No such endpoint.")
            }
            if status == .methodNotAllowed {
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }
    }

    /// One route per folder, not per file: a route per file put ~2,700 routes (with their 405s) in
    /// Hummingbird's trie at every start, whose nodes look for a child one by one (227 map tiles in
    /// one folder). In a debug build that was a second of CPU per server on the concurrency pool,
    /// which held up every other test's live server while the suites started.
    @Test func theClientsFilesTakeARoutePerFolder() throws {
        let web = try WebController(settings: WebClientSettings())
        let folders = Set(web.assets.keys.map { $0.prefix(through: $0.lastIndex(of: "/")!) }).subtracting(["/"])
        let rootFiles = web.assets.keys.filter { $0.lastIndex(of: "/") == $0.startIndex }
        #expect(web.routePatterns.count == folders.count + rootFiles.count)
        #expect(web.routePatterns.count < web.assets.count / 4)
    }

    @Test func clientConfigurationNamesNoTilesByDefault() async throws {
        try await TestServer.run { server in
            let response = try await server.send(.get, "/config.json")
            #expect(String(buffer: response.body) == #"{"signIn":[],"tiles":null}"#)
            #expect(response.headers[.contentSecurityPolicy]?.contains("img-src 'self';") == true)
        }
    }

    @Test func configuredTilesReachTheClientAndTheCSP() async throws {
        let tiles = try #require(TileSource(urlTemplate: "https://{s}.tile.example.org/{z}/{x}/{y}.png", attribution: "© Example"))
        try await TestServer.run(configure: { $0.webClient.tiles = tiles }) { server in
            let response = try await server.send(.get, "/config.json")
            #expect(String(buffer: response.body) == #"{"signIn":[],"tiles":{"attribution":"© Example","url":"https://{s}.tile.example.org/{z}/{x}/{y}.png"}}"#)
            #expect(response.headers[.contentSecurityPolicy]?.contains("img-src 'self' https://*.tile.example.org;") == true)
        }
    }

    @Test(arguments: [
        ("https://tile.example.org/{z}/{x}/{y}.png", "© Example", "https://tile.example.org"),
        ("http://localhost:8081/tiles/{z}/{x}/{y}.png", "Local", "http://localhost:8081"),
    ])
    func tileSourcesGiveTheirCSPSource(url: String, attribution: String, source: String) throws {
        #expect(TileSource(urlTemplate: url, attribution: attribution)?.contentSecuritySource == source)
    }

    @Test(arguments: [
        ("https://tile.example.org/{z}/{x}/{y}.png", ""),
        ("https://tile.example.org/{z}/{x}.png", "© Example"),
        ("ftp://tile.example.org/{z}/{x}/{y}.png", "© Example"),
        ("https://tile.example.org;script-src/{z}/{x}/{y}.png", "© Example"),
        ("https://{z}.example.org/{z}/{x}/{y}.png", "© Example"),
        ("https://tile.example.org/{z}/{x}/{y}.png", "line one\nline two"),
    ])
    func badTileSourcesAreRefused(url: String, attribution: String) {
        #expect(TileSource(urlTemplate: url, attribution: attribution) == nil)
    }

    @Test func aMissingLeafletIsAStartUpErrorThatSaysWhatToInstall() throws {
        var settings = WebClientSettings()
        settings.leafletDirectory = "/nonexistent/leaflet"
        #expect {
            try WebController(settings: settings)
        } throws: { error in
            String(describing: error).contains("libjs-leaflet")
        }
    }

    @Test(arguments: [
        ("gzip", true), ("deflate, gzip;q=0.5", true), ("*", true), ("gzip;q=0", false), ("gzip; q=0.0", false),
        ("br", false), (nil, false), ("GZIP;Q=0.000", false), ("identity, gzip;q=1", true), ("gzip;q=0, *", true), (" , ;", false), ("x-gzip", false), ("gzipped", false), ("deflate,GZip", true),
    ] as [(String?, Bool)])
    func acceptEncodingIsRead(header: String?, accepts: Bool) {
        #expect(ResponseCompression.acceptsGzip(header) == accepts)
    }
}

/// The service worker's list of files to keep for offline use matches what the server serves.
@Suite struct OfflineShellTests {
    /// The paths listed in sw.js's `const <list> = [...]`, comments left out.
    private func paths(in script: String, list: String) throws -> [String] {
        let start = try #require(script.range(of: "const \(list) = ["))
        let end = try #require(script[start.upperBound...].range(of: "];"))
        return script[start.upperBound..<end.lowerBound].split(separator: "\n")
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .flatMap { $0.matches(of: #/'([^']+)'/#).map { String($0.output.1) } }
    }

    @Test func everyKeptFileIsServedWithThePagesScripts() async throws {
        try await TestServer.run { server in
            let script = String(buffer: try await server.send(.get, "/sw.js").body)
            let shell = try paths(in: script, list: "SHELL_FILES"), scripts = try paths(in: script, list: "SCRIPT_FILES")
            #expect(shell.count > 10 && scripts.count >= 3)
            for path in shell + scripts {
                let response = try await server.send(.get, path)
                #expect(response.status == .ok, "sw.js keeps \(path), which the server does not serve")
            }
            // What the page runs (the bundle's files or the modules) is kept.
            let page = String(buffer: try await server.send(.get, "/").body)
            let named = page.matches(of: #/<(?:script src|link rel="modulepreload" href)="(/(?:js|bundle)/[^"]+)"/#).map { String($0.output.1) }
            #expect(!named.isEmpty)
            for path in named { #expect((shell + scripts).contains(path), "sw.js does not keep \(path)") }
        }
    }

    /// Served unbundled (no current bundle), every module must open offline: sw.js as written lists them.
    @Test func theWorkerAsWrittenKeepsEveryModule() throws {
        let root = WebController.bundledWebRoot
        let script = try String(contentsOf: root.appendingPathComponent("sw.js"), encoding: .utf8)
        let kept = try paths(in: script, list: "SHELL_FILES") + paths(in: script, list: "SCRIPT_FILES")
        let modules = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("js").path)
        for module in modules where module.hasSuffix(".js") {
            #expect(kept.contains("/js/\(module)"), "sw.js does not keep /js/\(module): the app would not open offline")
        }
    }

    /// The OpenAPI description and its readable page are served; Schemathesis
    /// (`make api-fuzz`) checks the live answers against it.
    @Test func theAPIDescriptionAndItsPageAreServed() async throws {
        try await TestServer.run { server in
            let description = try await server.send(.get, "/openapi.json")
            #expect(description.status == .ok)
            let spec = try description.object()
            #expect(spec["openapi"] as? String == "3.1.0")
            let paths = try #require(spec["paths"] as? [String: Any])
            for path in ["/v1/session", "/api/session", "/v1/users/{id}", "/api/users/{id}", "/v1/StudentLocation",
                         "/parse/classes/StudentLocation/{objectId}", "/1/classes/StudentLocation", "/v1/accounts", "/v1/me",
                         "/v1/geocode", "/healthz", "/readyz", "/v1/StudentLocation/events", "/v1/oidc/{provider}/start",
                         "/v1/oidc/{provider}/callback"] {
                #expect(paths[path] != nil, "\(path) is described")
            }
            let page = try await server.send(.get, "/api.html")
            #expect(page.status == .ok && page.text.contains("/api-docs.js"))
        }
    }
}
