import Hummingbird
import OnTheMapModel
import NIOConcurrencyHelpers

/// What is known about one request, worked out once and read by everything after: the client's
/// address as every per-address bound counts it (an IPv6 address by its /64, `AddressGroup`;
/// filled by `RequestFactsMiddleware`), the path family (set by the route group that
/// matched), and the caller (looked up on first use). One request's middleware and handler run one
/// after another, so the lock is never contended; it is there because the context is `Sendable`.
final class RequestFacts: Sendable {
    private struct State {
        var clientAddress = "unknown"
        var family: PathFamily?
        /// The course `/c/{slug}/` named (`CourseMiddleware`); nil at today's paths, which serve
        /// the default course.
        var mountedCourse: Course?
        /// Its headers are read for the session credential only when the caller is asked for: the
        /// list reads never parse a cookie.
        var request: Request?
        var authenticator: SessionAuthenticator?
        /// nil until looked up; then the caller, or nil for none.
        var caller: Caller??
    }

    private let state = NIOLockedValueBox(State())

    /// Called once per request, before routing.
    func begin(clientAddress: String, request: Request, authenticator: SessionAuthenticator) {
        state.withLockedValue { state in
            state.clientAddress = clientAddress
            state.request = request
            state.authenticator = authenticator
        }
    }

    var clientAddress: String { state.withLockedValue(\.clientAddress) }

    var family: PathFamily? {
        get { state.withLockedValue(\.family) }
        set { state.withLockedValue { $0.family = newValue } }
    }

    var mountedCourse: Course? {
        get { state.withLockedValue(\.mountedCourse) }
        set {
            state.withLockedValue { state in
                // The caller's role is read for the course of the moment.
                precondition(state.caller == nil, "the course is known before the caller is looked up")
                state.mountedCourse = newValue
            }
        }
    }

    /// The course the request is for.
    var course: CourseID { mountedCourse?.id ?? .default }

    func caller() async throws -> Caller? {
        let (known, request, authenticator, course) = state.withLockedValue {
            ($0.caller, $0.request, $0.authenticator, $0.mountedCourse?.id ?? .default)
        }
        if let known { return known }
        var found: Caller?
        if let request, let credential = SessionCredential(of: request), let authenticator {
            found = try await authenticator.caller(token: credential.token, viaCookie: credential.viaCookie, in: course)
        }
        state.withLockedValue { $0.caller = .some(found) }
        return found
    }
}
