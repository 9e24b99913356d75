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
    /// The gzip form (level 9, off the concurrency threads), when it saves at least a tenth. Nil
    /// for kinds gzip does not help (images) and files too small to gain.
    let gzip: ComputedOnce<ByteBuffer?>?

    init(bytes: some Collection<UInt8>, contentType: String) throws {
        let body = ByteBuffer(bytes: bytes)
        self.body = body
        self.contentType = contentType
        let tag = Identifiers.hex(SHA256.hash(data: body.readableBytesView).prefix(12))
        self.etag = "\"\(tag)\""
        self.gzip = Self.isCompressible(contentType) && body.readableBytes > 512 ? ComputedOnce {
            let compressed = try await NIOThreadPool.singleton.runIfActive { try ResponseCompression.gzip(body, level: 9) }
            return compressed.readableBytes * 10 < body.readableBytes * 9 ? compressed : nil
        } : nil
    }

    /// The gzip form, when it saves at least a tenth (a failed compression sends the plain bytes).
    func gzipped() async -> ByteBuffer? { (try? await gzip?.value) ?? nil }

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

    /// Folders already read, by path and prefix: the files never change while the process runs,
    /// and a process may start many servers (the test suites start hundreds, each of which read
    /// and hashed the basemap's 7 MB until they starved each other of threads).
    private static let loaded = NIOLockedValueBox<[String: [String: StaticAsset]]>([:])

    static func load(directory: URL, prefix: String) throws -> [String: StaticAsset] {
        let key = prefix + "\u{0}" + directory.standardizedFileURL.path
        if let assets = loaded.withLockedValue({ $0[key] }) { return assets }
        let assets = try read(directory: directory, prefix: prefix)
        loaded.withLockedValue { $0[key] = assets }
        return assets
    }

    private static func read(directory: URL, prefix: String) throws -> [String: StaticAsset] {
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
