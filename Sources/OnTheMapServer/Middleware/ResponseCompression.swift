import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// gzip for answers whose client accepts it (docs/API.md, "Compression"). The web client's files
/// and the cached list keep their compressed form ready; every other JSON answer over 1 KiB is
/// compressed here as it leaves.
enum ResponseCompression {
    /// Below this, gzip's header and the CPU are not worth it.
    static let minimumBytes = 1024

    /// True when `Accept-Encoding` lists gzip (or `*`) without `q=0`. Read on every list request,
    /// so over the header's bytes: splitting and lowercasing strings cost more than the rest of a
    /// cached answer.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var item: [UInt8] = []
        item.reserveCapacity(32)
        for byte in header.utf8 {
            if byte == UInt8(ascii: ",") {
                if acceptsGzip(item: item) { return true }
                item.removeAll(keepingCapacity: true)
            } else {
                item.append(byte)
            }
        }
        return acceptsGzip(item: item)
    }

    /// One `coding;param;…` item of `Accept-Encoding`.
    private static func acceptsGzip(item: [UInt8]) -> Bool {
        let pieces = item.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        let coding = pieces[0].filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }.map { $0 | 0x20 }
        guard coding == Array("gzip".utf8) || coding == [UInt8(ascii: "*")] else { return false }
        let refused = pieces.dropFirst().contains { parameter in
            let compact = String(decoding: parameter.filter { $0 != UInt8(ascii: " ") }, as: UTF8.self).lowercased()
            return compact.hasPrefix("q=") && Double(compact.dropFirst(2)) == 0
        }
        return !refused
    }

    /// `buffer` gzipped at `level` (1 fastest … 9 smallest).
    static func gzip(_ buffer: ByteBuffer, level: Int32) throws -> ByteBuffer {
        var input = buffer
        return try input.compress(with: .gzip, configuration: .init(compressionLevel: level))
    }

    /// A strong ETag for the gzip form of the representation tagged `etag`.
    static func gzipETag(_ etag: String) -> String { String(etag.dropLast()) + "-gz\"" }
}

/// Compresses JSON answers on their way out when the client accepts gzip. Answers that chose their
/// own encoding (they carry `Vary` already: the web client's files, the cached list) pass as they are.
struct CompressionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Level 5: most of level 9's saving on JSON, at a fraction of its CPU per answer.
    let level: Int32 = 5

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard response.headers[.vary] == nil, response.headers[.contentEncoding] == nil,
              response.headers[.contentType]?.hasPrefix("application/json") == true,
              let length = response.body.contentLength, length >= ResponseCompression.minimumBytes else { return response }
        response.headers[.vary] = "Accept-Encoding"
        guard ResponseCompression.acceptsGzip(request.headers[.acceptEncoding]) else { return response }
        let compressed = try ResponseCompression.gzip(try await response.body.collected(), level: level)
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = String(compressed.readableBytes)
        if let etag = response.headers[.eTag] { response.headers[.eTag] = ResponseCompression.gzipETag(etag) }
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }
}
