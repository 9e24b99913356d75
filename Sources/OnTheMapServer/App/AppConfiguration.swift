import NIOCore
import OnTheMapStore

/// Who may write locations (docs/API.md, "Who may write").
public enum WriteMode: String, Sendable, CaseIterable {
    /// Writes need a live session; the account supplies uniqueKey and names.
    case accounts
    /// Anyone may write, as on the original service; rate limited per client address.
    case open
}

/// Who may start a course over the API (`POST /v1/courses`): any logged-in account, which then
/// teaches it, or the server's admins alone (a school whose IT sets courses up). The operator's
/// `onthemap course add` may always.
public enum CourseCreators: String, Sendable, CaseIterable {
    case anyone
    case admins
}

/// Everything the server needs to know, read once at start.
public struct AppConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var writeMode = WriteMode.accounts
    public var courseCreators = CourseCreators.anyone
    /// The origin users reach the service at (`https://map.example.org`): used by the cross-site
    /// checks, for absolute `Location` headers and, when https, for `Secure` cookies.
    public var publicURL: PublicURL?
    /// How long a login lasts.
    public var sessionLifetimeSeconds: Int64 = 30 * 24 * 3600
    /// How long a login lasts unused: each use moves this bound on (within the lifetime above).
    public var sessionIdleSeconds: Int64 = 14 * 24 * 3600
    /// An admin changes accounts only within this long of proving their password (logging in, or
    /// typing it again).
    public var adminPasswordConfirmationSeconds: Int64 = 10 * 60
    /// `limit` values above this are clamped.
    public var maxListLimit = 1000
    /// `skip` values above this are a 400: the database walks over every skipped row.
    public var maxSkip = 10_000
    /// Courses whose default list `LatestListCache` keeps (about 35 KB each with 100 pins).
    public var listCacheCourses = 1_000
    /// List reads answered from an index that may run at once, and how many more may wait.
    public var cheapReadConcurrency = 32
    public var cheapReadQueue = 512
    /// List reads that may scan the table (see `LocationQuery.isIndexed`) that may run at once, and
    /// how many more may wait; fewer than the database's reader connections, so cheap reads always
    /// find one free.
    public var expensiveReadConcurrency = 2
    public var expensiveReadQueue = 16
    /// bcrypt cost; 12 in production, lower only in tests.
    public var bcryptCost: UInt8 = 12
    /// Password hashes (logins, sign-ups) computed at once (one per core), how many more may wait,
    /// and how many one client address may have computing and waiting. Waiting hashes are taken
    /// fairly across addresses, so a burst from one cannot hold up another student's login by
    /// more than one hash time; past the per-address bound, 429.
    public var passwordHashConcurrency = System.coreCount
    public var passwordHashQueue = 256
    public var passwordHashesPerAddress = 32
    /// The server's secret (`serve --secret-file`); a random one for this process by default,
    /// which suits a single process only.
    public var secret = ServerSecret.perProcess
    /// Make `secret` the database's own even though it was served with another one.
    public var adoptSecret = false
    /// How many idempotency keys one caller, and one client address (IPv6 by its /64), may hold
    /// at once (a day's worth): generous for a class behind one NAT, a bound on what anonymous
    /// callers can make the table hold.
    public var idempotencyBounds = IdempotencyBounds(perCaller: 1_000, perAddress: 10_000)
    /// The reverse proxies whose `X-Forwarded-For` gives the client's address (`--trust-proxy`).
    public var trustedProxies = TrustedProxies.nobody
    /// Failed logins allowed per email and client address in `loginThrottleWindowSeconds`.
    public var loginThrottleLimit = 10
    public var loginThrottleWindowSeconds = 60.0
    /// Failed logins allowed per client address over any emails per minute. A class behind one
    /// NAT shares an address, so this is generous; each failure costs a bcrypt verify.
    public var loginFailuresPerAddressPerMinute = 30
    /// Failed logins allowed per account, over every address, from devices that never logged in
    /// to it (`DeviceCookie`), in `accountLoginFailureWindowSeconds`.
    public var loginFailuresPerAccount = 20
    public var accountLoginFailureWindowSeconds = 900.0
    /// Password resets with a dead token allowed per client address in `passwordResetWindowSeconds`.
    public var passwordResetFailuresPerAddress = 10
    public var passwordResetWindowSeconds = 600.0
    /// Sign-ups allowed per client address in 10 minutes (a class signing up at once shares one).
    public var signUpsPerAddressPer10Minutes = 100
    /// OpenID Connect providers students may sign in with (needs `publicURL`: it makes the
    /// callback address each provider must know).
    public var signInProviders: [SignInProvider] = []
    /// Sign-ins through a provider started per client address per minute (each stores a row).
    public var signInStartsPerMinute = 120
    /// Writes allowed per client address per minute in `open` mode.
    public var openWritesPerMinute = 30
    /// A Nominatim-compatible search endpoint asked first for street-level input (`…/search`).
    public var geocoderUpstream: String?
    /// How long to wait for the upstream before answering offline.
    public var geocoderUpstreamTimeout: Duration = .milliseconds(1500)
    /// `GET /v1/geocode` requests allowed per client address per minute.
    public var geocodeRequestsPerMinute = 120
    /// The windows the per-address limits above count over (a minute; sign-ups ten). Only tests
    /// lengthen them, so that a machine slowed by a hundred tests at once cannot let a window run
    /// out halfway through one.
    public var geocodeRateWindowSeconds = 60.0
    public var addressLoginFailureWindowSeconds = 60.0
    public var signUpWindowSeconds = 600.0
    public var openWritesWindowSeconds = 60.0
    /// Live streams (`GET /v1/StudentLocation/events`): caps, heartbeat, catch-up.
    public var live = LiveStreamSettings()
    /// The database sends some reads to standbys (`--database-replicas`): the server remembers who
    /// wrote lately, so that their reads see their writes (`StandbyReadsMiddleware`).
    public var standbyReads = false
    /// The longest of the windows above: rate events older than this count for nothing.
    var longestRateWindowSeconds: Double {
        [loginThrottleWindowSeconds, geocodeRateWindowSeconds, addressLoginFailureWindowSeconds, signUpWindowSeconds, openWritesWindowSeconds,
         accountLoginFailureWindowSeconds, passwordResetWindowSeconds].max()!
    }
    /// How often to check whether another process (`onthemap user remove`) wrote to the database,
    /// so that the cached list picks the change up.
    public var externalWriteCheckInterval: Duration = .milliseconds(500)
    /// Timeouts and connection limits at the HTTP edge.
    public var edge = EdgeLimits()
    /// Where Leaflet is and which map background the web client draws.
    public var webClient = WebClientSettings()

    public init() {}

    /// Refuses settings that cannot work together, with what to change. Checked by `serve` before
    /// it opens the database, and by `buildApplication` for anyone who builds the app otherwise.
    public func check() throws(ConfigurationError) {
        // A provider must be told the address it sends students back to.
        if !signInProviders.isEmpty, publicURL == nil {
            throw ConfigurationError("--oidc-provider needs --public-url: each provider sends students back to PUBLIC_URL/v1/oidc/ID/callback.")
        }
    }
}

/// An origin such as `https://map.example.org` or `http://localhost:8080`.
public struct PublicURL: Sendable, Equatable {
    public let scheme: String
    /// Host with port when not the default, lowercased: what browsers send in `Origin` after the scheme.
    public let authority: String

    /// Parses an origin; nil unless it is `http(s)://host[:port]` with at most a trailing slash.
    public init?(_ text: String) {
        let lowered = text.lowercased()
        guard let range = lowered.range(of: "://") else { return nil }
        let scheme = String(lowered[..<range.lowerBound])
        var rest = lowered[range.upperBound...]
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard scheme == "http" || scheme == "https", !rest.isEmpty,
              !rest.contains("/"), !rest.contains("?"), !rest.contains("#"), !rest.contains("@") else { return nil }
        self.scheme = scheme
        let defaultPort = scheme == "https" ? ":443" : ":80"
        self.authority = rest.hasSuffix(defaultPort) ? String(rest.dropLast(defaultPort.count)) : String(rest)
    }

    /// `scheme://authority`.
    public var origin: String { "\(scheme)://\(authority)" }
    public var isSecure: Bool { scheme == "https" }
}

/// Settings that cannot work together, said as what to change.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
