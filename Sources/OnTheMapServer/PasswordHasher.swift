import HummingbirdBcrypt
import NIOCore
import NIOPosix

/// Hashes and checks passwords. A protocol so tests can count verifications.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, against hash: String) async throws -> Bool
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
        return try await Self.pool.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await Self.pool.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
