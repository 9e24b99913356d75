import Foundation

/// Where the web client's files come from and which map background it draws.
public struct WebClientSettings: Sendable {
    /// Debian's `libjs-leaflet` and `libjs-leaflet.markercluster` install into one directory.
    public static let debianLeafletDirectory = "/usr/share/javascript/leaflet"

    /// Leaflet and markercluster, served under `/vendor/leaflet/`.
    public var leafletDirectory = WebClientSettings.debianLeafletDirectory
    /// Debian's `node-qrcode-generator` installs its script here (the copy under
    /// /usr/share/javascript is a symbolic link to it, which the file loader does not follow).
    public static let debianQRCodeDirectory = "/usr/share/nodejs/qrcode-generator"

    /// The QR code encoder that draws a course's invite link for a projector, served under
    /// `/vendor/qrcode/` when there (without it the course page shows the link alone).
    public var qrCodeDirectory = WebClientSettings.debianQRCodeDirectory
    /// Online raster tiles drawn over the offline basemap; nil keeps the map fully offline.
    public var tiles: TileSource?

    public init() {}
}

/// An operator-chosen tile server, such as `https://{s}.tile.example.org/{z}/{x}/{y}.png`.
public struct TileSource: Sendable, Equatable {
    public let urlTemplate: String
    public let attribution: String
    /// The CSP source expression that lets the browser load these tiles (`https://*.tile.example.org`).
    public let contentSecuritySource: String

    /// Nil unless `urlTemplate` is an http(s) URL with `{z}`, `{x}` and `{y}` and a plain host (which
    /// may start with a `{s}` subdomain), and `attribution` is not blank: tiles need credit.
    public init?(urlTemplate: String, attribution: String) {
        let lowered = urlTemplate.lowercased()
        guard let schemeEnd = lowered.range(of: "://"),
              ["http", "https"].contains(lowered[..<schemeEnd.lowerBound]),
              ["{z}", "{x}", "{y}"].allSatisfy(lowered.contains),
              !attribution.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
              !attribution.contains(where: { $0.isNewline }) else { return nil }
        let afterScheme = lowered[schemeEnd.upperBound...]
        var authority = String(afterScheme.prefix { $0 != "/" && $0 != "?" })
        if authority.hasPrefix("{s}.") { authority = "*." + authority.dropFirst(4) }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
        let host = authority.hasPrefix("*.") ? authority.dropFirst(2) : Substring(authority)
        guard !host.isEmpty, host.allSatisfy(allowed.contains), !host.hasPrefix(".") else { return nil }
        self.urlTemplate = urlTemplate
        self.attribution = attribution
        self.contentSecuritySource = String(lowered[..<schemeEnd.upperBound]) + authority
    }
}
