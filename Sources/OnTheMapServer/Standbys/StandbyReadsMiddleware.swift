import Hummingbird
import NIOConcurrencyHelpers
import OnTheMapModel
import OnTheMapStore

/// With standbys taking reads (`--database-replicas`), a student must still see their own write
/// at once, though a standby may be a moment behind. So every request runs knowing when its caller
/// last wrote (`StandbyReads.writtenAt`), and the database sends their reads only to a standby that
/// has replayed past it. Known two ways: this instance remembers the sessions that wrote through it
/// (`RecentWriters`), and a successful write sets the cookie `otm_wrote` (the time), which browsers
/// and native apps' shared URL sessions send back to whichever instance they reach next.
struct StandbyReadsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "otm_wrote"
    /// Longer than any lag bound worth setting: past it, every standby in rotation has the write.
    static let memorySeconds: Int64 = 60

    let writers: RecentWriters
    let clock: WallClock
    let secure: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let now = clock.nowMillis()
        let session = SessionCredential(of: request).map { SessionToken.hash($0.token) }
        // A time from the future is someone's invention: it would only send their reads to the primary.
        let cookie = request.cookies[Self.cookieName].flatMap { Int64($0.value) }.flatMap { $0 <= now ? $0 : nil }
        let known = [cookie, session.flatMap(writers.lastWrite(by:))].compactMap { $0 }.max()
        var response = try await StandbyReads.$writtenAt.withValue(known) { try await next(request, context) }
        guard request.method != .get, request.method != .head, (200..<300).contains(response.status.code) else { return response }
        let wrote = clock.nowMillis()
        if let session { writers.wrote(session, at: wrote) }
        response.headers[values: .setCookie].append(
            "\(Self.cookieName)=\(wrote); Path=/; Max-Age=\(Self.memorySeconds); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : ""))
        return response
    }
}

/// The sessions (by their token's hash) that wrote through this instance lately, and when.
final class RecentWriters: Sendable {
    private struct Writes {
        var last: [String: Int64] = [:]
        var prunedAt: Int64 = 0
    }

    private let writes = NIOLockedValueBox(Writes())
    /// More than this many remembered, the ones older than `StandbyReadsMiddleware.memorySeconds`
    /// go, at most once a second: with more sessions than this writing within the memory, pruning
    /// at every write would cost each write a pass over all of them.
    private let pruneAbove: Int

    init(pruneAbove: Int = 10_000) {
        self.pruneAbove = pruneAbove
    }

    func wrote(_ session: String, at millis: Int64) {
        writes.withLockedValue { writes in
            writes.last[session] = millis
            guard writes.last.count > pruneAbove, millis - writes.prunedAt >= 1000 else { return }
            let cutoff = millis - StandbyReadsMiddleware.memorySeconds * 1000
            writes.last = writes.last.filter { $0.value >= cutoff }
            writes.prunedAt = millis
        }
    }

    func lastWrite(by session: String) -> Int64? {
        writes.withLockedValue { $0.last[session] }
    }

    var count: Int { writes.withLockedValue { $0.last.count } }
}
