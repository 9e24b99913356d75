import Crypto
import Foundation
import OnTheMapModel

/// The server's own secret, kept outside the database (`serve --secret-file`): what the database
/// keeps about a request (an idempotency key's fingerprint, who sent it) is a MAC under it, so a
/// stolen copy of the database lets nobody test guesses against it. Every instance of one database
/// must hold the same secret; the database records a digest of it to tell (`checkDigest`).
public struct ServerSecret: Sendable {
    private let key: SymmetricKey

    /// The secret a file's text gives: any text of at least 32 characters (`openssl rand -hex 32`),
    /// read as is but for surrounding whitespace.
    public init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count >= 32 else { return nil }
        key = SymmetricKey(data: SHA256.hash(data: Array(("onthemap server secret\n" + trimmed).utf8)))
    }

    private init(key: SymmetricKey) {
        self.key = key
    }

    /// A random secret for this process: the default for a server built without `--secret-file`
    /// (the tests'), which is right for one process and no more.
    public static let perProcess = ServerSecret(key: SymmetricKey(size: .bits256))

    /// Text for a new secret file: 64 random hexadecimal digits.
    public static func newFileText() -> String { Identifiers.token() + "\n" }

    /// HMAC-SHA256 of `parts` under the secret, for `purpose`; each part is length-prefixed, so
    /// that no two lists of parts give the same input.
    func mac(_ purpose: String, _ parts: [[UInt8]]) -> HashedAuthenticationCode<SHA256> {
        var code = HMAC<SHA256>(key: key)
        for part in [Array(purpose.utf8)] + parts {
            withUnsafeBytes(of: UInt64(part.count).bigEndian) { code.update(data: $0) }
            code.update(data: part)
        }
        return code.finalize()
    }

    /// `mac` as hexadecimal text.
    func hex(_ purpose: String, _ parts: [[UInt8]]) -> String {
        Identifiers.hex(mac(purpose, parts))
    }

    /// `plaintext` sealed (AES-GCM, under a key drawn from the secret for `purpose`): what the
    /// database may keep of something it must not hold as is (the LTI tool's private key).
    func seal(_ plaintext: [UInt8], for purpose: String) throws -> [UInt8] {
        guard let combined = try AES.GCM.seal(plaintext, using: sealingKey(purpose)).combined else { throw CryptoKitError.incorrectParameterSize }
        return Array(combined)
    }

    /// What `seal` sealed for `purpose`; throws when the secret is not the one it was sealed under,
    /// or the sealed bytes were changed.
    func open(_ sealed: [UInt8], for purpose: String) throws -> [UInt8] {
        Array(try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: sealingKey(purpose)))
    }

    private func sealingKey(_ purpose: String) -> SymmetricKey {
        SymmetricKey(data: mac("sealing key", [Array(purpose.utf8)]))
    }

    /// What the database records to tell whether an instance holds the secret it was served with;
    /// it reveals nothing of the secret.
    public var checkDigest: String { hex("secret check", []) }
}
