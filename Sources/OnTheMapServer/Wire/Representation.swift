import NIOCore

/// The form of a stored representation an answer sends: gzip when the client takes it (under its
/// own strong ETag), and whether the client's copy is current. One rule for the cached list and the
/// web client's files.
struct Representation {
    let tag: String
    let body: ByteBuffer
    let isGzip: Bool
    /// The client's `If-None-Match` names this representation: answer 304.
    let isCurrentAtClient: Bool

    /// `gzip` is the gzip form when the client accepts gzip (`ResponseCompression.acceptsGzip`).
    init(etag: String, plain: ByteBuffer, gzip: ByteBuffer?, ifNoneMatch: String?) {
        tag = gzip != nil ? ResponseCompression.gzipETag(etag) : etag
        body = gzip ?? plain
        isGzip = gzip != nil
        isCurrentAtClient = Self.ifNoneMatch(ifNoneMatch, matches: tag)
    }

    /// RFC 9110 section 13.1.2: `*` matches any current representation, and a listed tag matches by
    /// weak comparison (a `W/` in front is ignored: a proxy that compressed our answer may have
    /// weakened its tag).
    static func ifNoneMatch(_ header: String?, matches tag: String) -> Bool {
        guard let header else { return false }
        let ours = opaque(Substring(tag))
        return header.split(separator: ",").contains { listed in
            let listed = listed.trimmingCharacters(in: .whitespaces)
            return listed == "*" || opaque(Substring(listed)) == ours
        }
    }

    private static func opaque(_ tag: Substring) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}
