import Crypto
import Foundation
import Testing
@testable import OnTheMapServer
import OnTheMapModel

/// The bundle is served only while it was made from the modules the server holds; the page then
/// runs it, and the service worker keeps its files (WebClient/WebBundle.swift, OfflineShell.swift).
@Suite struct WebBundleTests {
    /// A client root with the real page and service worker, two modules, two catalogues and,
    /// unless `bundled` is false, a bundle made from the modules as they are now.
    private func webRoot(bundled: Bool = true) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("web-bundle-\(UUID().uuidString)")
        let real = WebController.bundledWebRoot
        let write = { (path: String, text: String) in
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        for file in ["index.html", "embed.html", "sw.js", "app.css"] {
            try write(file, try String(contentsOf: real.appendingPathComponent(file), encoding: .utf8))
        }
        let modules = [
            "js/main.js": "import { a } from './a.js';\nimport('./map-screens.js');\n",
            "js/a.js": "export const a = 1;\n",
            "js/map-screens.js": "import { a } from './a.js';\nexport const b = a;\n",
            "js/locales/en.js": "export default {};\n",
            "js/locales/fr.js": "export default {};\n",
        ]
        for (path, text) in modules { try write(path, text) }
        guard bundled else { return root }
        try write("bundle/main-AAAA.js", "import{a}from\"./chunk-BBBB.js\";import(\"./map-screens-CCCC.js\");")
        try write("bundle/chunk-BBBB.js", "export const a=1;")
        try write("bundle/map-screens-CCCC.js", "import{a}from\"./chunk-BBBB.js\";export const b=a;")
        try write("bundle/meta.json", """
            {"inputs": {}, "outputs": {
              "bundle.tmp/main-AAAA.js": {"entryPoint": "js/main.js", "imports": [
                {"path": "bundle.tmp/chunk-BBBB.js", "kind": "import-statement"},
                {"path": "bundle.tmp/map-screens-CCCC.js", "kind": "dynamic-import"}]},
              "bundle.tmp/map-screens-CCCC.js": {"entryPoint": "js/map-screens.js", "imports": [
                {"path": "bundle.tmp/chunk-BBBB.js", "kind": "import-statement"}]},
              "bundle.tmp/chunk-BBBB.js": {"imports": []}}}
            """)
        let sources = modules.keys.sorted().map { path in
            "\(Identifiers.hex(SHA256.hash(data: Data(modules[path]!.utf8))))  \(path)"
        }
        try write("bundle/sources.sha256", sources.joined(separator: "\n") + "\n")
        return root
    }

    private func page(_ controller: WebController, language: String = "en") throws -> String {
        String(buffer: try #require(controller.firstPage.allPages.first { String(buffer: $0.body).contains("lang=\"\(language)\"") }).body)
    }

    @Test func aCurrentBundleIsWhatThePageRunsAndTheWorkerKeeps() throws {
        let controller = try WebController(settings: WebClientSettings(), webRoot: try webRoot())
        #expect(controller.bundleNote == nil)
        let page = try page(controller)
        #expect(page.contains("<script src=\"/bundle/main-AAAA.js\" type=\"module\"></script>"))
        #expect(page.contains("<link rel=\"modulepreload\" href=\"/bundle/chunk-BBBB.js\">"))
        #expect(!page.contains("map-screens") && !page.contains("/js/a.js") && !page.contains("/js/main.js"))
        #expect(try self.page(controller, language: "fr").contains("<link rel=\"modulepreload\" href=\"/js/locales/fr.js\">"))
        let worker = String(buffer: try #require(controller.assets["/sw.js"]).body)
        #expect(worker.contains("const SCRIPT_FILES = ['/bundle/chunk-BBBB.js', '/bundle/main-AAAA.js', '/bundle/map-screens-CCCC.js'];"))
        #expect(worker.contains(#/const SHELL_CACHE = 'onthemap-shell-v\d+-[0-9a-f]{12}';/#))
        #expect(!worker.contains("'/js/main.js'"))
        // The metafile is the server's to read, not a file of the client.
        #expect(controller.assets["/bundle/meta.json"] == nil)
    }

    @Test func aBundleOlderThanAModuleIsSetAsideForTheModules() throws {
        let root = try webRoot()
        try Data("export const a = 2;\n".utf8).write(to: root.appendingPathComponent("js/a.js"))
        let controller = try WebController(settings: WebClientSettings(), webRoot: root)
        #expect(controller.bundleNote?.contains("/js/a.js changed since the bundle was made") == true)
        let page = try page(controller)
        #expect(page.contains("<script src=\"/js/main.js\" type=\"module\"></script>"))
        #expect(page.contains("<link rel=\"modulepreload\" href=\"/js/a.js\">"))
        #expect(!page.contains("/bundle/"))
        let worker = String(buffer: try #require(controller.assets["/sw.js"]).body)
        #expect(worker.contains("'/js/main.js'"))
    }

    @Test func aBundleMissingAFileIsSetAside() throws {
        let root = try webRoot()
        try FileManager.default.removeItem(at: root.appendingPathComponent("bundle/chunk-BBBB.js"))
        let controller = try WebController(settings: WebClientSettings(), webRoot: root)
        #expect(controller.bundleNote?.contains("/bundle/chunk-BBBB.js is missing") == true)
        #expect(try page(controller).contains("<script src=\"/js/main.js\" type=\"module\"></script>"))
    }

    @Test func withoutABundleTheModulesAreServedAndNothingIsSaid() throws {
        let controller = try WebController(settings: WebClientSettings(), webRoot: try webRoot(bundled: false))
        #expect(controller.bundleNote == nil)
        #expect(try page(controller).contains("<script src=\"/js/main.js\" type=\"module\"></script>"))
    }

    @Test func aSourcesListNamingAGoneModuleIsStale() throws {
        let assets = try StaticAssetLoader.load(directory: try webRoot(bundled: false), prefix: "/")
        #expect(WebBundle.staleSource("0123  js/gone.js\n", assets: assets) == "/js/gone.js")
        #expect(WebBundle.staleSource("", assets: assets) != nil)
    }
}
