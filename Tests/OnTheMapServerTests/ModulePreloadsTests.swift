import Foundation
import Testing
@testable import OnTheMapServer

/// Served unbundled, the page names every module its entry script imports statically, however
/// deep, so that a browser asks for them all with the page (no import waterfall).
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
}
