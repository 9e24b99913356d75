import Foundation
import Testing
@testable import OnTheMapServer

/// A fast first visit: the page names every module its entry script imports statically,
/// however deep, so that a browser asks for them all with the page (no import waterfall).
@Suite struct ModulePreloadsTests {
    let files = [
        "/js/main.js": """
            import { a } from './a.js';
            import {
              b1,
              b2,
            } from './b.js';
            import './side-effect.js';
            export { c } from './sub/c.js';
            // Fetched on demand, not with the page:
            const later = () => import('./map.js');
            """,
        "/js/a.js": "import { b1 } from './b.js';\nexport const a = 1;",
        "/js/b.js": "export const b1 = 1, b2 = 2;",
        "/js/side-effect.js": "console.log('x');",
        "/js/sub/c.js": "import { a } from '../a.js';\nimport en from './locales/en.js';\nexport const c = 3;",
        "/js/sub/locales/en.js": "export default {};",
        "/js/map.js": "import { deep } from './deep.js';",
        "/js/deep.js": "export const deep = 1;",
    ]

    @Test func everyStaticImportIsFoundOnceAndOnDemandOnesAreNot() {
        let found = ModulePreloads.imports(of: "/js/main.js", files: files)
        #expect(found == ["/js/a.js", "/js/b.js", "/js/side-effect.js", "/js/sub/c.js", "/js/sub/locales/en.js"])
        #expect(!found.contains("/js/map.js") && !found.contains("/js/deep.js"))
    }

    @Test func theLinksFollowTheEntryScript() {
        let page = """
            <head>
              <script src="/js/main.js" type="module"></script>
            </head>
            """
        let linked = ModulePreloads.page(page, entry: "/js/main.js", files: files)
        #expect(linked.contains("""
            <script src="/js/main.js" type="module"></script>
              <link rel="modulepreload" href="/js/a.js">
              <link rel="modulepreload" href="/js/b.js">
            """))
        #expect(ModulePreloads.page("<head></head>", entry: "/js/main.js", files: files) == "<head></head>")
    }

    /// The served page against the client's real files: every module main.js needs is linked.
    @Test func theServedPagePreloadsWhatMainImports() async throws {
        try await TestServer.run { server in
            let page = String(buffer: try await server.send(.get, "/").body)
            for module in ["/js/api.js", "/js/i18n.js", "/js/locales/en.js", "/js/map-code.js", "/js/api-errors.js"] {
                #expect(page.contains("<link rel=\"modulepreload\" href=\"\(module)\">"), "\(module)")
            }
            // The map's code waits until a map is wanted.
            #expect(!page.contains("href=\"/js/pin-map.js\""))
            #expect(!page.contains("leaflet.js"))
        }
    }
}
