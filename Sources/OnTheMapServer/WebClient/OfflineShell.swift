import Crypto
import Foundation
import OnTheMapModel

/// The service worker (sw.js) keeps the page's scripts for offline use under `SCRIPT_FILES`, which
/// lists the modules. When the server serves the bundle instead, it writes the bundle's files
/// there as it starts, and puts a digest of their names into the cache's name: a new bundle is a
/// new worker, which keeps the new files and drops the cache of the old ones when it takes over.
enum OfflineShell {
    static func serviceWorker(_ source: String, scripts: [String]) throws -> String {
        var script = source
        guard let start = script.range(of: "const SCRIPT_FILES = ["),
              let end = script[start.upperBound...].range(of: "];"),
              let cacheName = script.firstMatch(of: #/const SHELL_CACHE = '([^']+)';/#) else {
            throw StaticAssetLoader.LoadError(description: "sw.js must declare SHELL_CACHE and SCRIPT_FILES: the server rewrites them for the bundle")
        }
        let listed = scripts.map { "'\($0)'" }.joined(separator: ", ")
        script.replaceSubrange(start.lowerBound..<end.upperBound, with: "const SCRIPT_FILES = [\(listed)];")
        let digest = Identifiers.hex(SHA256.hash(data: Array(scripts.joined(separator: "\n").utf8)).prefix(6))
        script.replaceSubrange(cacheName.range, with: "const SHELL_CACHE = '\(cacheName.output.1)-\(digest)';")
        return script
    }
}
