/// The Content-Security-Policy every response carries: scripts, styles and data only from this
/// origin (no inline code, no `eval`; the one inline style is the page's own, named by its digest),
/// no plugins, no framing, and images from tiles the operator chose. The web client is written to
/// run under it; its browser tests fail on any violation. A course's embeddable map is the same
/// but for `frameAncestors`: any page may frame it.
enum ContentSecurityPolicy {
    /// `formActions`: origins besides this one that forms may post to (a learning platform's
    /// Deep Linking return URL).
    static func header(tiles: TileSource?, styleDigests: [String] = [], frameAncestors: String = "'none'", formActions: [String] = []) -> String {
        let images = ["'self'"] + (tiles.map { [$0.contentSecuritySource] } ?? [])
        let styles = ["'self'"] + styleDigests.map { "'\($0)'" }
        return [
            "default-src 'self'",
            "script-src 'self'",
            "style-src " + styles.joined(separator: " "),
            "img-src " + images.joined(separator: " "),
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action " + (["'self'"] + formActions).joined(separator: " "),
            "frame-ancestors \(frameAncestors)",
        ].joined(separator: "; ")
    }
}
