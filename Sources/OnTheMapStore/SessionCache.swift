import NIOConcurrencyHelpers
import OnTheMapModel

/// Live sessions kept in memory, so that a request's caller costs no read of the database (on
/// PostgreSQL, where that read is a round trip on every write; SQLite reads in process and keeps
/// none). The rules, which `SessionCacheTests` and `SessionsAcrossInstancesTests` hold it to:
///
/// - Only a session found live is kept, per token and course asked about, for at most `lifetime`,
///   and it is never answered past its own expiry or idle bound (each use checks them against the
///   caller's clock; a session past either is read again).
/// - A write that changes what a session read answers (logout; an account disabled, deleted, made
///   admin or not; a password reset; a membership; a password confirmed) drops the entries of the
///   accounts it concerns here as soon as it has committed, then tells every other instance on the
///   database's change channel before it is answered (`SQLStore.sessionsChanged`); they drop theirs
///   when the notification arrives, milliseconds later. A session revoked on one instance is
///   therefore refused on every other within the notification's delivery, and at the latest after
///   `lifetime` should the notification be lost (a change made by hand in SQL, too).
/// - Nothing is kept while the change channel is not listening (`listening(_:)`): losing it drops
///   every entry, since notifications sent meanwhile are not heard.
/// - A read that began before a drop is not kept: it may have seen what the drop removed.
public final class SessionCache: Sendable {
    /// The longest an entry is answered without reading the database again.
    public static let lifetime: Duration = .seconds(10)

    private struct Key: Hashable {
        let tokenHash: String
        let course: CourseID
    }

    private struct Entry {
        var session: LiveSession
        let expiresAt: Int64
        let keptUntil: ContinuousClock.Instant
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Moves on at every drop: a read that began under an older one is not kept.
        var generation: UInt64 = 0
        var listening = false
    }

    /// A read of a session, begun while entries could be kept.
    public struct Ticket: Sendable {
        fileprivate let generation: UInt64
    }

    private let state = NIOLockedValueBox(State())
    private let maxEntries: Int
    private let lifetime: Duration
    /// Tells the other instances that the sessions of these accounts (nil: of every account) changed.
    private let announce: @Sendable (Set<String>?) async -> Void

    public init(maxEntries: Int = 100_000, lifetime: Duration = SessionCache.lifetime, announce: @escaping @Sendable (Set<String>?) async -> Void) {
        self.maxEntries = maxEntries
        self.lifetime = lifetime
        self.announce = announce
    }

    /// The kept session of `tokenHash` in `course`, if it is still live at `now` (microseconds).
    func session(tokenHash: String, in course: CourseID, now: Int64) -> LiveSession? {
        let key = Key(tokenHash: tokenHash, course: course)
        return state.withLockedValue { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.keptUntil > .now, entry.expiresAt > now, (entry.session.idleExpiresAt ?? .max) > now else {
                state.entries[key] = nil
                return nil
            }
            return entry.session
        }
    }

    /// A ticket for a read about to begin; nil while nothing may be kept.
    func ticket() -> Ticket? {
        state.withLockedValue { $0.listening ? Ticket(generation: $0.generation) : nil }
    }

    /// Keeps `session` (expiring at `expiresAt`, microseconds), read under `ticket`, unless
    /// something was dropped since the read began.
    func keep(_ session: LiveSession, expiresAt: Int64, tokenHash: String, in course: CourseID, readUnder ticket: Ticket) {
        state.withLockedValue { state in
            guard state.listening, state.generation == ticket.generation else { return }
            if state.entries.count >= maxEntries { state.entries.removeAll(keepingCapacity: true) }
            state.entries[Key(tokenHash: tokenHash, course: course)] = Entry(session: session, expiresAt: expiresAt, keptUntil: .now + lifetime)
        }
    }

    /// This instance moved the session's idle bound on: its entries say so. (Another instance's
    /// entries keep the earlier bound, and read the session again once past it.)
    func extendIdle(tokenHash: String, until: Int64) {
        state.withLockedValue { state in
            for (key, entry) in state.entries where key.tokenHash == tokenHash {
                var moved = entry
                moved.session = LiveSession(
                    account: entry.session.account, courseRole: entry.session.courseRole, idleExpiresAt: until,
                    createdAt: entry.session.createdAt, confirmedAt: entry.session.confirmedAt, expiresAt: entry.session.expiresAt)
                state.entries[key] = moved
            }
        }
    }

    /// Drops the entries of `accounts` (nil: every entry), as another instance announced.
    public func drop(accounts: Set<String>?) {
        state.withLockedValue { state in
            state.generation &+= 1
            guard let accounts else { return state.entries.removeAll() }
            state.entries = state.entries.filter { !accounts.contains($0.value.session.account.key) }
        }
    }

    /// A write that changed the sessions of `accounts` (nil: of every account) has committed:
    /// drops them here, then tells the other instances.
    func changed(accounts: Set<String>?) async {
        drop(accounts: accounts)
        await announce(accounts)
    }

    /// Whether entries may be kept: the change channel listens.
    var isListening: Bool { state.withLockedValue { $0.listening } }

    /// Whether the change channel listens: while it does not, nothing is kept, and whatever was
    /// kept is dropped either way (notifications may have been missed).
    public func listening(_ listening: Bool) {
        state.withLockedValue { state in
            state.listening = listening
            state.generation &+= 1
            state.entries.removeAll()
        }
    }
}
