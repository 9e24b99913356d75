import Foundation

/// When the modules are served unbundled (no current bundle, `WebBundle`), the page names every
/// module its entry script imports, however deep, as `<link rel="modulepreload">`: a browser then
/// asks for them all with the page, instead of finding each import only once its parent has
/// arrived (on a phone network, a round trip per level of the import tree). The list is worked out
/// from the files when the server starts, so it cannot go stale; modules imported on demand
/// (`import('./map-screens.js')`) stay out of it, as their code is not wanted yet.
enum ModulePreloads {
    /// Every module `entry` imports statically, directly or through another, in the order first met.
    static func imports(of entry: String, files: [String: String]) -> [String] {
        var found: [String] = []
        var seen: Set<String> = [entry]
        var queue = [entry]
        while !queue.isEmpty {
            let module = queue.removeFirst()
            guard let source = files[module] else { continue }
            for imported in staticImports(in: source, of: module) where seen.insert(imported).inserted {
                found.append(imported)
                queue.append(imported)
            }
        }
        return found
    }

    /// The paths of a module's `import … from './x.js'` and `import './x.js'` lines, resolved
    /// against the module's own path. (`import(…)`, a call, is not a static import.)
    static func staticImports(in source: String, of module: String) -> [String] {
        let pattern = #/^\s*(?:import|export)\s(?:[^;'"]*?\sfrom\s)?\s*'(\.{1,2}/[^']+)'/#.anchorsMatchLineEndings()
        let directory = URL(fileURLWithPath: module).deletingLastPathComponent()
        return source.matches(of: pattern).map { match in
            directory.appendingPathComponent(String(match.output.1)).standardized.path
        }
    }
}
