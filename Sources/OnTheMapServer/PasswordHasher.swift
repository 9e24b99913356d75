import HummingbirdBcrypt
import NIOPosix

/// Hashes and checks passwords. A protocol so tests can count verifications.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, against hash: String) async throws -> Bool
}

/// bcrypt, run on NIO's thread pool: a cost-12 verify takes about a quarter of a second, which must
/// never block an event loop.
public struct BcryptPasswordHasher: PasswordHasher {
    let cost: UInt8

    public init(cost: UInt8) { self.cost = cost }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
