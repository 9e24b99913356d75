import CompressNIO
import Crypto
import Foundation
import NIOCore
import OnTheMapModel

/// One file of the web client held in memory, with its gzip form when that is smaller.
/// The client is a few hundred kilobytes plus the basemap: reading it once at start-up makes
/// every later request a memory copy and lets ETags be computed once.
struct StaticAsset: Sendable {
    let body: ByteBuffer
    let gzipped: ByteBuffer?
    let contentType: String
    /// Strong validator of `body`; the gzip form's is the same with `-gz` appended.
    let etag: String

    init(bytes: some Collection<UInt8>, contentType: String) throws {
        var body = ByteBuffer(bytes: bytes)
        self.body = body
        self.contentType = contentType
        let tag = Identifiers.hex(SHA256.hash(data: body.readableBytesView).prefix(12))
        self.etag = "\"\(tag)\""
        if Self.isCompressible(contentType), body.readableBytes > 512 {
            let compressed = try body.compress(with: .gzip, configuration: .init(compressionLevel: 9))
            self.gzipped = compressed.readableBytes * 10 < self.body.readableBytes * 9 ? compressed : nil
        } else {
            self.gzipped = nil
        }
    }

    var gzipETag: String { String(etag.dropLast()) + "-gz\"" }

    /// Content types by file extension; files of other kinds are not served.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "map": "application/json; charset=utf-8",
        "webmanifest": "application/manifest+json; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8",
    ]

    private static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("application/") || contentType.hasPrefix("image/svg")
    }
}

/// Every servable file under `directory`, keyed by URL path under `prefix` (which ends in `/`).
/// Hidden files, precompressed copies and unknown kinds are skipped.
enum StaticAssetLoader {
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    static func load(directory: URL, prefix: String) throws -> [String: StaticAsset] {
        let files = FileManager.default.enumerator(
            at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        guard let files else { throw LoadError(description: "cannot read \(directory.path)") }
        var assets: [String: StaticAsset] = [:]
        let root = directory.standardizedFileURL.path
        for case let file as URL in files {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let contentType = StaticAsset.contentTypes[file.pathExtension.lowercased()] else { continue }
            // The URL path is where the file sits in the tree (a symlink keeps its own name).
            let path = file.standardizedFileURL.path
            guard path.hasPrefix(root + "/") else { continue }
            let relative = String(path.dropFirst(root.count + 1))
            assets[prefix + relative] = try StaticAsset(bytes: try Data(contentsOf: file), contentType: contentType)
        }
        return assets
    }
}
