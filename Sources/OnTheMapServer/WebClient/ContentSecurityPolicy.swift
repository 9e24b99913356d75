/// The Content-Security-Policy every response carries: scripts, styles and data only from this
/// origin (no inline code, no `eval`), no plugins, no framing, and images from tiles the operator
/// chose. The web client is written to run under it; its browser tests fail on any violation.
enum ContentSecurityPolicy {
    static func header(tiles: TileSource?) -> String {
        let images = ["'self'"] + (tiles.map { [$0.contentSecuritySource] } ?? [])
        return [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src " + images.joined(separator: " "),
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }
}
