import Crypto
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OnTheMapModel

/// One file of the web client held in memory, with its gzip form made on first use (or by
/// `WebController.precompress` after start) and kept when it is smaller. The client is a few
/// hundred kilobytes plus the basemap: reading it once at start-up makes every later request a
/// memory copy and lets ETags be computed once; compressing it all at level 9 took 0.6 s of every
/// start, so that waits until it is wanted.
struct StaticAsset: Sendable {
    let body: ByteBuffer
    let contentType: String
    /// Strong validator of `body`; the gzip form's is the same with `-gz` appended.
    let etag: String
    /// Nil for kinds gzip does not help (images) and files too small to gain.
    let gzip: LazyGzip?

    init(bytes: some Collection<UInt8>, contentType: String) throws {
        let body = ByteBuffer(bytes: bytes)
        self.body = body
        self.contentType = contentType
        let tag = Identifiers.hex(SHA256.hash(data: body.readableBytesView).prefix(12))
        self.etag = "\"\(tag)\""
        self.gzip = Self.isCompressible(contentType) && body.readableBytes > 512 ? LazyGzip(body) : nil
    }

    /// The gzip form, when it saves at least a tenth.
    func gzipped() async -> ByteBuffer? { await gzip?.value }

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

/// A body's gzip form (level 9: made once per process), computed on the first request that asks,
/// off the concurrency threads; requests that ask meanwhile wait for the same computation.
final class LazyGzip: Sendable {
    private let body: ByteBuffer
    private let task = NIOLockedValueBox<Task<ByteBuffer?, Never>?>(nil)

    init(_ body: ByteBuffer) { self.body = body }

    var value: ByteBuffer? {
        get async {
            let running = task.withLockedValue { task in
                if let task { return task }
                let body = self.body
                let started = Task {
                    let compressed = try? await NIOThreadPool.singleton.runIfActive { try ResponseCompression.gzip(body, level: 9) }
                    guard let compressed, compressed.readableBytes * 10 < body.readableBytes * 9 else { return nil as ByteBuffer? }
                    return compressed
                }
                task = started
                return started
            }
            return await running.value
        }
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
