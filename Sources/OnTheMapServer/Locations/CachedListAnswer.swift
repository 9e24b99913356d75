import Foundation
import HTTPTypes
import NIOCore

/// The answer to a request for the default list, made from the cached entry: revalidation by ETag
/// (304) and the gzip form for clients that take it. The router's list handler and the edge's
/// `CachedListFastPath` both answer with it, so the two cannot drift apart.
struct CachedListAnswer {
    let status: HTTPResponse.Status
    /// The representation's ETag: the entry's, or its gzip form's.
    let tag: String
    let gzipped: Bool
    /// Nothing for a 304.
    let body: ByteBuffer?

    init(_ entry: LatestListCache.Entry, acceptEncoding: String?, ifNoneMatch: String?) {
        let representation = Representation(
            etag: entry.etag, plain: entry.body, gzip: ResponseCompression.acceptsGzip(acceptEncoding) ? entry.gzipped : nil,
            ifNoneMatch: ifNoneMatch)
        tag = representation.tag
        gzipped = representation.isGzip
        status = representation.isCurrentAtClient ? .notModified : .ok
        body = representation.isCurrentAtClient ? nil : representation.body
    }

    /// As the list handler's `JSONResponse.raw` sets them; the security headers come after.
    var headers: HTTPFields {
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "no-cache", .vary: "Accept-Encoding",
                                   .contentType: "application/json; charset=utf-8"]
        if gzipped && body != nil { headers[.contentEncoding] = "gzip" }
        return headers
    }
}
