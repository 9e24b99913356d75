public import Foundation

/// Where a client keeps its session between calls (and, for a store that persists, between
/// launches). The session id is a bearer token: whoever has it is logged in as the student.
public protocol SessionStore: Sendable {
    func load() async throws -> Session?
    /// Keeps `session`, or forgets the session kept when it is nil (after logging out).
    func save(_ session: Session?) async throws
}

/// The default: the session lives as long as the client, and a new launch logs in again.
/// A lock rather than an actor: every call reads it, and an actor's hop to its executor and back
/// cost more than the rest of the façade's work on a call.
public final class InMemorySessionStore: SessionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var session: Session?

    public init(_ session: Session? = nil) { self.session = session }

    public func load() -> Session? { lock.withLock { session } }
    public func save(_ session: Session?) { lock.withLock { self.session = session } }
}

/// A session in a file only its owner may read (mode 0600), for command-line tools and servers.
public struct FileSessionStore: SessionStore {
    public let url: URL

    public init(url: URL) { self.url = url }

    public func load() throws -> Session? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Session.self, from: Data(contentsOf: url))
    }

    public func save(_ session: Session?) throws {
        guard let session else {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            return
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Created empty with the owner's permissions first, so the token is never readable by others.
        _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try encoder.encode(session).write(to: url)
    }
}
