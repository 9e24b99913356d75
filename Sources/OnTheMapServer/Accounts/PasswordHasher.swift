import Crypto
import Foundation
#if canImport(HummingbirdBcrypt)
import HummingbirdBcrypt
#else
// Package.swift takes hummingbird-auth's bcrypt on Linux only: it asks for macOS 14 and iOS 17,
// above the floor of OnTheMapKit, which shares this package.
#error("The On The Map server runs on Linux (Debian, or the Dockerfile); on Apple platforms this package builds OnTheMapKit, the client.")
#endif
import NIOCore
import NIOPosix

/// Hashes and checks passwords. A protocol so tests can count verifications.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, against hash: String) async throws -> Bool
    /// Whether `hash` is in an older scheme, to be replaced after the next successful login.
    func needsRehash(_ hash: String) -> Bool
}

extension PasswordHasher {
    public func needsRehash(_ hash: String) -> Bool { false }
}

/// How a password becomes what bcrypt hashes (docs/API.md, "Passwords"). bcrypt reads at most 72
/// bytes and stops at a NUL, so a long or NUL-holding password would be cut silently. Instead the
/// password is NFC-normalized (the same text typed on any device gives the same bytes), encoded as
/// UTF-8, and pre-hashed with HMAC-SHA256 under a fixed key; bcrypt gets the 44-character base64 of
/// that. (Keyed, so that a plain SHA-256 of the password leaked elsewhere cannot stand in for it.)
/// A stored hash in this scheme starts with `$otm1$`, followed by the bcrypt string.
public enum PasswordScheme {
    public static let prefix = "$otm1$"
    private static let keyBytes = Array("onthemap password pre-hash v1".utf8)

    /// The text bcrypt hashes for `password`: 44 ASCII characters, no NUL.
    public static func bcryptInput(_ password: String) -> String {
        let normalized = password.precomposedStringWithCanonicalMapping
        return Data(HMAC<SHA256>.authenticationCode(for: Array(normalized.utf8), using: SymmetricKey(data: keyBytes))).base64EncodedString()
    }

    public static func isCurrent(_ hash: String) -> Bool { hash.hasPrefix(prefix) }
}

/// bcrypt on a thread pool of its own: a cost-12 verify takes about a quarter of a second, which must
/// never block an event loop, nor queue the database's work (SQLite runs on NIO's shared pool)
/// behind a burst of logins.
public struct BcryptPasswordHasher: PasswordHasher {
    let cost: UInt8

    public init(cost: UInt8) { self.cost = cost }

    /// Lives as long as the process; started on first use.
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, System.coreCount))
        pool.start()
        return pool
    }()

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        let input = PasswordScheme.bcryptInput(password)
        return try await Self.pool.runIfActive { PasswordScheme.prefix + Bcrypt.hash(input, cost: cost) }
    }

    /// Checks both schemes: a hash without the prefix is bcrypt of the raw password, as stored
    /// before the scheme existed, and is checked the way it was made.
    public func verify(_ password: String, against hash: String) async throws -> Bool {
        if PasswordScheme.isCurrent(hash) {
            let input = PasswordScheme.bcryptInput(password)
            let bcryptHash = String(hash.dropFirst(PasswordScheme.prefix.count))
            return try await Self.pool.runIfActive { Bcrypt.verify(input, hash: bcryptHash) }
        }
        return try await Self.pool.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    public func needsRehash(_ hash: String) -> Bool { !PasswordScheme.isCurrent(hash) }
}
