internal import Foundation
internal import OpenAPIRuntime

/// Everything a call can fail with: what the server said, sorted into what an app does about it.
///
/// ```swift
/// do { try await client.post(location) }
/// catch let error as OnTheMapError where error.kind == .throttled {
///     try await Task.sleep(for: error.retryAfter ?? .seconds(5))
/// }
/// ```
public struct OnTheMapError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Login: no account with this email, or the wrong password (the server does not say which).
        case wrongCredentials
        /// Login: the password was right, but a moderator disabled the account.
        case accountDisabled
        /// No session, or it ended (logged out, expired, or its account's password was reset).
        case notLoggedIn
        /// A write to a pin that belongs to another account.
        case notOwner
        /// Refused for another reason (a cross-site request, a disabled account's write).
        case forbidden
        /// No such pin, account or path.
        case notFound
        /// No course has the client's course slug (``OnTheMapClient/courseSlug``).
        case courseNotFound
        /// The account is not a member of the course (logging in at its path, or reading a
        /// members-only map): it joins with the course's invite link.
        case notACourseMember
        /// The course is archived: its map can be read, not changed.
        case courseArchived
        /// Joining: the invite link was switched off or replaced, is another course's, or the course is archived.
        case inviteNotValid
        /// Making a course: another course has the slug.
        case courseSlugTaken
        /// A field or parameter was refused; `parameter` names it when one is to blame.
        case invalid
        /// Sign-up: the email already has an account.
        case emailTaken
        /// The same `Idempotency-Key` is still running, was cut off, or came with another request.
        case duplicateRequest
        /// The body is over the server's 64 KiB.
        case tooLarge
        /// Too many attempts; wait `retryAfter`.
        case throttled
        /// The server or its database cannot answer now; nothing was written. Wait `retryAfter`.
        case unavailable
        /// The server failed (it logged why).
        case serverError
        /// The server could not be reached, or the connection broke before an answer.
        case network
        /// An answer this client does not understand (another server at this address?).
        case unexpectedAnswer
        /// The session store could not keep or read the session (the Keychain refused, say).
        case sessionStorage
        /// The task making the call was cancelled.
        case cancelled
    }

    public var kind: Kind
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// Parse's error code, when the server sent one (142 validation, 209 invalid session, …).
    public var code: Int?
    /// The server's own words, or what went wrong on the way.
    public var message: String
    /// The field or parameter to blame (`mediaURL`, `udacity.username`, `where`), when one is.
    public var parameter: String?
    /// How long the server asked to wait before trying again (429, 503, a request still running).
    public var retryAfter: Duration?

    public init(kind: Kind, status: Int? = nil, code: Int? = nil, message: String, parameter: String? = nil, retryAfter: Duration? = nil) {
        self.kind = kind
        self.status = status
        self.code = code
        self.message = message
        self.parameter = parameter
        self.retryAfter = retryAfter
    }

    public var description: String {
        var text = "\(kind.rawValue)"
        if let status { text += " (\(status)\(code.map { ", code \($0)" } ?? ""))" }
        text += ": \(message)"
        if let parameter { text += " [\(parameter)]" }
        return text
    }
}

extension OnTheMapError {
    /// The error body of any of the server's three families, after the Udacity prefix.
    struct Body: Decodable {
        var status: Int?
        var code: Int?
        var error: String?
        var parameter: String?
    }

    /// The error for an answer with a status other than 2xx: what the body says, read in the light of
    /// the operation it answers (a 403 is wrong credentials at login, not the owner on a write).
    init(status: Int, body: Data, retryAfter: Duration?, operationID: String) {
        let decoded = try? JSONDecoder().decode(Body.self, from: body)
        let message = decoded?.error ?? HTTPStatusText.of(status)
        self.init(
            kind: Self.kind(status: status, code: decoded?.code, message: message, operationID: operationID),
            status: status, code: decoded?.code, message: message, parameter: decoded?.parameter, retryAfter: retryAfter)
    }

    static let disabledAccountMessage = "This account has been disabled by an admin of this map."

    /// The server's words for a course's refusals: a 404 or 403 is told apart from a pin's by them
    /// alone, in every family's shape (KitCoursePathTests holds them to the server's).
    static let courseMessages: [String: Kind] = [
        "No course has this address.": .courseNotFound,
        "This account is not a member of this course. Ask its instructor for the invite link.": .notACourseMember,
        "This course is archived: its map can be read but no longer changed.": .courseArchived,
        "This invite link no longer works. Ask your instructor for the course's current link.": .inviteNotValid,
    ]

    private static func kind(status: Int, code: Int?, message: String, operationID: String) -> Kind {
        if status == 404 || status == 403, let kind = courseMessages[message] { return kind }
        let isLogin = operationID == "udacity-session-login"
        let isWrite = ["v1-create", "v1-update", "v1-delete", "parse-create", "parse-update", "parse-delete"].contains(operationID)
        switch (status, code) {
        case (400, _): return code == 159 ? .duplicateRequest : .invalid
        case (401, _): return .notLoggedIn
        case (403, _) where isLogin: return message == disabledAccountMessage ? .accountDisabled : .wrongCredentials
        case (403, _) where isWrite && message != disabledAccountMessage: return .notOwner
        case (403, _): return .forbidden
        case (404, _): return .notFound
        case (409, 203): return .emailTaken
        case (409, 119) where operationID == "createCourse": return .courseSlugTaken
        case (409, _), (422, _): return .duplicateRequest
        case (413, _): return .tooLarge
        case (429, _): return .throttled
        case (503, _): return .unavailable
        case (500..<600, _): return .serverError
        default: return .unexpectedAnswer
        }
    }

    /// Any error on the way to an answer, as one of ours: the runtime wraps what middleware and
    /// transports throw in `ClientError`, whose cause is ours (an error answer) or the network's.
    init(from error: any Error) {
        switch error {
        case let error as OnTheMapError: self = error
        case is CancellationError: self.init(kind: .cancelled, message: "The call was cancelled.")
        case let error as ClientError:
            if let cause = error.underlyingError as? OnTheMapError {
                self = cause
            } else if error.underlyingError is CancellationError {
                self.init(kind: .cancelled, message: "The call was cancelled.")
            } else if error.response != nil {
                // The answer came but did not decode as the document says it would.
                self.init(kind: .unexpectedAnswer, status: error.response.map { $0.status.code },
                          message: "\(error.causeDescription): \(error.underlyingError)")
            } else {
                self.init(kind: .network, message: Self.couldNotReach(error.underlyingError))
            }
        default: self.init(kind: .network, message: Self.couldNotReach(error))
        }
    }

    /// The network's failure in words: Foundation's description of a URL error, or the transport's own.
    private static func couldNotReach(_ error: any Error) -> String {
        let nsError = error as NSError
        let detail = nsError.domain == NSURLErrorDomain
            ? (nsError.userInfo[NSLocalizedDescriptionKey] as? String ?? "URL error \(nsError.code)")
            : String(describing: error)
        return "Could not reach the server: \(detail)"
    }

    static func unexpected(_ what: String, status: Int? = nil) -> OnTheMapError {
        OnTheMapError(kind: .unexpectedAnswer, status: status, message: what)
    }
}

/// Words for a status whose body said nothing readable (a proxy's page, say).
enum HTTPStatusText {
    static func of(_ status: Int) -> String {
        switch status {
        case 502: "The server's proxy could not reach it (502)."
        case 504: "The server's proxy timed out waiting for it (504)."
        default: "The server answered \(status)."
        }
    }
}
