import Crypto
import Foundation
import OnTheMapModel

/// The web client's modules bundled and minified by `make web-bundle` (Debian's esbuild) into
/// `Public/bundle/`: three files instead of some forty, which on a phone network is the difference
/// between one round of requests and seven (a browser opens six connections to a server over
/// HTTP/1.1, and each request waits a full latency). The server serves the bundle only when it
/// was built from the modules it holds: `sources.sha256` lists the SHA-256 of every module the
/// bundle was made from, and a bundle left behind by an edit of one of them (a developer running
/// `swift build` alone) is set aside for the modules themselves, which are always correct.
struct WebBundle: Equatable {
    /// The script the page runs, such as `/bundle/main-ABCD1234.js`.
    let entry: String
    /// The files the entry imports, however deep: the page names them all, so that they are asked
    /// for with it.
    let preloads: [String]
    /// Every file of the bundle, the lazily loaded ones included (the service worker keeps them).
    let files: [String]

    /// Where the bundle sits under the client's root, and its URL path.
    static let folder = "bundle"
    static let metafile = "meta.json"
    static let sourcesFile = "sources.sha256"

    enum Reading: Equatable {
        case current(WebBundle)
        /// Why the bundle is not used, for the log (nil: there is none, as in a plain `swift build`).
        case setAside(String?)
    }

    /// The bundle under `webRoot`, if it was made from exactly the `assets` held now (their URL
    /// paths are `/js/…`, the sources file's paths `js/…`).
    static func read(webRoot: URL, assets: [String: StaticAsset]) -> Reading {
        let folder = webRoot.appendingPathComponent(Self.folder)
        guard let sources = try? String(contentsOf: folder.appendingPathComponent(sourcesFile), encoding: .utf8),
              let meta = try? Data(contentsOf: folder.appendingPathComponent(metafile)) else { return .setAside(nil) }
        if let stale = staleSource(sources, assets: assets) {
            return .setAside("\(stale) changed since the bundle was made; run make web-bundle")
        }
        guard let bundle = try? parse(metafile: meta) else { return .setAside("its \(metafile) cannot be read; run make web-bundle") }
        let missing = bundle.files.filter { assets[$0] == nil }
        guard missing.isEmpty else { return .setAside("\(missing.joined(separator: ", ")) is missing; run make web-bundle") }
        return .current(bundle)
    }

    /// The first source whose digest differs from the one the bundle was made from, or which is
    /// gone; nil when every one is as it was. Lines are `sha256sum`'s: `<hex>  <path>`.
    static func staleSource(_ sources: String, assets: [String: StaticAsset]) -> String? {
        let lines = sources.split(whereSeparator: \.isNewline)
        if lines.isEmpty { return sources }
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return String(line) }
            let path = "/" + parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "*"))
            guard let asset = assets[path] else { return path }
            if Identifiers.hex(SHA256.hash(data: asset.body.readableBytesView)) != parts[0] { return path }
        }
        return nil
    }

    /// The entry (`js/main.js`'s output), its static imports and every output, from esbuild's
    /// metafile: `{"outputs": {"<dir>/<file>": {"entryPoint": "js/main.js", "imports": [{"path", "kind"}]}}}`.
    static func parse(metafile: Data) throws -> WebBundle {
        struct Meta: Decodable {
            struct Output: Decodable {
                struct Import: Decodable { let path: String; let kind: String }
                let entryPoint: String?
                let imports: [Import]
            }
            let outputs: [String: Output]
        }
        let outputs = try JSONDecoder().decode(Meta.self, from: metafile).outputs
        // Outputs are named by the folder esbuild wrote to; the server serves them under /bundle/.
        let served = { (path: String) in "/\(folder)/" + (path.split(separator: "/").last.map(String.init) ?? path) }
        let scripts = outputs.filter { $0.key.hasSuffix(".js") }
        guard let entry = scripts.first(where: { $0.value.entryPoint == "js/main.js" }) else {
            throw CocoaError(.coderValueNotFound)
        }
        var preloads: [String] = []
        var queue = [entry.key]
        while !queue.isEmpty {
            let output = queue.removeFirst()
            for imported in outputs[output]?.imports ?? [] where imported.kind == "import-statement" {
                guard !preloads.contains(served(imported.path)) else { continue }
                preloads.append(served(imported.path))
                queue.append(imported.path)
            }
        }
        return WebBundle(entry: served(entry.key), preloads: preloads, files: scripts.keys.map(served).sorted())
    }
}
