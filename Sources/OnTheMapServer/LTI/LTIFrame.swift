import Foundation
import OnTheMapStore

/// Who may frame a launch's pages (the Content-Security-Policy's `frame-ancestors`): the registered
/// platform's own origins, its issuer's and its authorization endpoint's, and the page the signed
/// launch says it came from (`launch_presentation.return_url`: Canvas's courses are on the
/// school's host, not on its issuer's). Nobody else may: another site framing a signed-in map
/// could dress it up and have a student click in it.
enum LTIFrame {
    /// The `frame-ancestors` source list for a launch from `platform`; `'none'` when no origin is usable.
    static func ancestors(platform: LTIPlatform, returnURL: String? = nil) -> String {
        sourceList(origins(platform: platform, returnURL: returnURL))
    }

    /// The platform's origins (and the launch's return page's), each once.
    static func origins(platform: LTIPlatform, returnURL: String? = nil) -> [String] {
        var origins: [String] = []
        for url in [platform.issuer, platform.authorizationURL, returnURL] {
            if let origin = url.flatMap(origin(of:)), !origins.contains(origin) { origins.append(origin) }
        }
        return origins
    }

    static func sourceList(_ origins: [String]) -> String {
        origins.isEmpty ? "'none'" : origins.joined(separator: " ")
    }

    /// `scheme://host[:port]` of an http(s) URL, as a policy's source names it; nil for anything
    /// else, or a host with characters a policy would read as syntax.
    static func origin(of text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = url.host?.lowercased(), !host.isEmpty,
              host.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || ".-[]:".unicodeScalars.contains($0) })
        else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }

    /// The ancestors as the launch's page carries them into its address (`/lti/launch?frame=…`),
    /// so that the page reloaded inside the platform's frame may be framed by the same origins:
    /// the origins in base64url and a MAC under the server's secret, so nobody can name others.
    static func pass(_ ancestors: String, secret: ServerSecret) -> String {
        let bytes = Array(ancestors.utf8)
        return Base64URL.encode(Data(bytes)) + "." + secret.hex(passPurpose, [bytes])
    }

    /// The ancestors a `pass` names; nil when it was not made here, or changed.
    static func ancestors(fromPass pass: String, secret: ServerSecret) -> String? {
        let parts = pass.split(separator: ".", omittingEmptySubsequences: false)
        guard pass.utf8.count <= 2048, parts.count == 2, let data = Base64URL.decode(parts[0]) else { return nil }
        let bytes = Array(data)
        guard ConstantTime.equal(secret.hex(passPurpose, [bytes]), String(parts[1])) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let passPurpose = "lti-frame-ancestors"
}
