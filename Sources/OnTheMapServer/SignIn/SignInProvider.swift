import Foundation

/// An OpenID Connect provider students may sign in with (a school's Google Workspace, Microsoft
/// Entra ID, Keycloak, GitLab…), as the operator configured it (README, "Sign in with a school
/// account").
public struct SignInProvider: Sendable, Equatable {
    /// Short and URL-safe (`school`): it names the provider in `/v1/oidc/ID/…` and in the database's
    /// links, so it must not change once students have signed in with it.
    public let id: String
    /// What the login page's button says after "Sign in with".
    public let displayName: String
    /// The provider's issuer URL, as its discovery document states it.
    public let issuer: String
    public let clientID: String
    public let clientSecret: String
    /// Take every email the provider gives as verified, for a provider that vouches for its users'
    /// addresses without saying so in `email_verified` (a school's own Entra ID tenant or
    /// Keycloak). Otherwise an ID token must say `email_verified: true` for its email to link or
    /// make an account.
    public let trustsEmail: Bool
    /// The token endpoint, for a provider whose discovery document does not give one (Facebook's
    /// OpenID Connect code flow); it replaces the document's when set.
    public let tokenEndpoint: URL?

    public init(
        id: String, displayName: String, issuer: String, clientID: String, clientSecret: String, trustsEmail: Bool = false,
        tokenEndpoint: String? = nil
    ) throws(Invalid) {
        guard !id.isEmpty, id.count <= 32, id.unicodeScalars.allSatisfy({ Self.idCharacters.contains($0) }) else {
            throw Invalid("id must be 1 to 32 of a-z, 0-9 and -, like \"school\"; got \"\(id)\"")
        }
        let name = displayName.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 60 else { throw Invalid("name must be 1 to 60 characters; got \"\(displayName)\"") }
        guard let issuerURL = URL(string: issuer), Self.isAllowedEndpoint(issuerURL), issuerURL.query == nil, issuerURL.fragment == nil else {
            throw Invalid("issuer must be an https URL (http only on this machine), without query or fragment; got \"\(issuer)\"")
        }
        guard !clientID.isEmpty else { throw Invalid("client-id is missing") }
        guard !clientSecret.isEmpty else { throw Invalid("client-secret (or client-secret-file) is missing") }
        self.id = id
        self.displayName = name
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.trustsEmail = trustsEmail
        if let tokenEndpoint {
            guard let url = URL(string: tokenEndpoint), Self.isAllowedEndpoint(url) else {
                throw Invalid("token-endpoint must be an https URL (http only on this machine); got \"\(tokenEndpoint)\"")
            }
            self.tokenEndpoint = url
        } else {
            self.tokenEndpoint = nil
        }
    }

    private static let idCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789-".unicodeScalars)

    /// https anywhere; plain http only to this machine, where a provider run for development or
    /// tests (and nobody in between) can be.
    static func isAllowedEndpoint(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return false }
        if scheme == "https" { return true }
        return scheme == "http" && ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
    }

    /// A configuration mistake, said in the words of `--oidc-provider`.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads `id=school,name=School account,issuer=https://…,client-id=…,client-secret-file=/etc/…`
    /// (`client-secret=…` works too but shows in the process list; `trust-email` takes no value;
    /// `token-endpoint=…` for a provider whose discovery lacks one).
    /// A comma inside a value is written `\,`. `readFile` reads the secret's file.
    public static func parse(_ text: String, readFile: (String) throws -> String) throws -> SignInProvider {
        var fields: [String: String] = [:]
        for part in splitUnescaped(text) where !part.trimmingCharacters(in: .whitespaces).isEmpty {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let key = pair[0].lowercased()
            guard Self.keys.contains(key) else {
                throw Invalid("unknown setting \"\(key)\"; expected \(Self.keys.sorted().joined(separator: ", "))")
            }
            guard fields[key] == nil else { throw Invalid("\(key) is given twice") }
            fields[key] = pair.count == 2 ? pair[1] : ""
        }
        if fields["client-secret"] != nil, fields["client-secret-file"] != nil {
            throw Invalid("give client-secret or client-secret-file, not both")
        }
        var secret = fields["client-secret"] ?? ""
        if let path = fields["client-secret-file"] {
            do {
                secret = try readFile(path).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw Invalid("could not read client-secret-file \(path): \(error.localizedDescription)")
            }
        }
        let trust = fields["trust-email"].map { ["", "true", "yes", "1"].contains($0.lowercased()) } ?? false
        return try SignInProvider(
            id: fields["id"] ?? "", displayName: fields["name"] ?? "", issuer: fields["issuer"] ?? "",
            clientID: fields["client-id"] ?? "", clientSecret: secret, trustsEmail: trust, tokenEndpoint: fields["token-endpoint"])
    }

    private static let keys: Set<String> = [
        "id", "name", "issuer", "client-id", "client-secret", "client-secret-file", "trust-email", "token-endpoint",
    ]

    /// Splits at commas not written `\,`, turning `\,` into a comma.
    private static func splitUnescaped(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                if character != "," { current.append("\\") }
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        parts.append(current)
        return parts
    }
}
