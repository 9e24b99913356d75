import HTTPTypes

/// Every operation of the API, named by its `operationId` in `openapi.json`, with its method, its
/// path, who may call it and the cross-site check in front of it. Route groups register handlers by
/// these names only, so a path is written here once; `APIDocumentTests` holds this table and the
/// document to each other (ids, methods, paths, `security`, `x-cross-site`, the Admin tag).
enum APIOperation: String, CaseIterable, Sendable {
    case udacitySessionLogin = "udacity-session-login"
    case udacitySessionLogout = "udacity-session-logout"
    case udacitySessionLegacyLogin = "udacity-session-legacy-login"
    case udacitySessionLegacyLogout = "udacity-session-legacy-logout"
    case udacityUser = "udacity-user"
    case udacityUserLegacy = "udacity-user-legacy"

    case v1List = "v1-list", v1Create = "v1-create", v1Read = "v1-read", v1Update = "v1-update", v1Delete = "v1-delete"
    case v1Events = "v1-events"
    case parseList = "parse-list", parseCreate = "parse-create", parseRead = "parse-read", parseUpdate = "parse-update"
    case parseDelete = "parse-delete"
    case parse1List = "parse-1-list", parse1Create = "parse-1-create", parse1Read = "parse-1-read", parse1Update = "parse-1-update"
    case parse1Delete = "parse-1-delete"

    case signUp = "sign-up"
    case me
    case confirmPassword
    case geocode
    case healthz, readyz
    case report
    case resetPassword

    case adminAccounts, adminChangeAccount, adminPasswordReset
    case adminLocations, adminChangeLocation, adminDeleteLocation
    case adminReports, adminDismissReports
    case adminAudit, adminExport
    /// The learning platforms registered for LTI 1.3, from the admin area.
    case adminLTI, adminAddPlatform, adminAddDeployment, adminRemovePlatform, adminRotateToolKey

    case startSignIn, finishSignIn

    case courseShow, courseChange, courseDelete, courseInvite, courseJoin, courseMembers, courseAddMembers, courseRemoveMember
    case courseReports, courseApprovals, courseChangeLocation, courseDismissReports, courseAudit, courseExport
    case myCourses, createCourse
    /// LTI 1.3: the tool's public keys, the platform's login initiation (GET or POST), the launch,
    /// its page loaded again in the platform's frame, the map opened from there in a window, and
    /// an instructor's choice in the Deep Linking picker.
    case ltiKeySet, ltiLogin, ltiLoginPost, ltiLaunch, ltiLaunchReload, ltiOpenWindow, ltiDeepLink

    /// Who may call an operation: what the document's `security` says of it.
    enum Access: Sendable {
        /// Anyone; a session, when sent, may change the answer (the document's default security).
        case anyone
        /// A logged-in caller (a bearer token or the session cookie), else 401.
        case session
        /// A logged-in admin: the operation sits in the admin area's group, behind `AdminGuard`.
        case admin
    }

    var method: HTTPRequest.Method { Self.routes[self]!.method }

    /// In the router's syntax (`:name` where OpenAPI writes `{name}`).
    var path: String { Self.routes[self]!.path }

    var access: Access {
        switch self {
        case .me, .confirmPassword, .report, .courseChange, .courseDelete, .courseInvite, .courseJoin, .courseMembers, .courseAddMembers, .courseRemoveMember,
             .courseReports, .courseApprovals, .courseChangeLocation, .courseDismissReports, .courseAudit, .courseExport, .myCourses,
             .createCourse: .session
        case .adminAccounts, .adminChangeAccount, .adminPasswordReset, .adminLocations, .adminChangeLocation, .adminDeleteLocation,
             .adminReports, .adminDismissReports, .adminAudit, .adminExport, .adminLTI, .adminAddPlatform, .adminAddDeployment,
             .adminRemovePlatform, .adminRotateToolKey: .admin
        default: .anyone
        }
    }

    /// What the operation does to the request's course (`CourseAccess`), for the operations a
    /// course serves (`CourseMount`). Logging in is checked by the login itself (the account is
    /// not known before), and joining by its invite; logging out harms nobody.
    var courseAction: CourseAccess.Action? {
        switch self {
        case .udacityUser, .udacityUserLegacy, .v1Events, .v1List, .v1Read, .parseList, .parseRead, .parse1List, .parse1Read: .read
        case .v1Create, .v1Update, .v1Delete, .parseCreate, .parseUpdate, .parseDelete, .parse1Create, .parse1Update, .parse1Delete: .write
        case .courseShow, .me: .read
        case .courseChange, .courseDelete, .courseInvite, .courseMembers, .courseAddMembers, .courseRemoveMember, .courseReports,
             .courseApprovals, .courseChangeLocation, .courseDismissReports, .courseAudit, .courseExport: .teach
        default: nil
        }
    }

    /// The check a browser's request passes before the handler: none for reads and for logging out
    /// (old clients send any header or none, and ending a session harms nobody).
    var crossSite: CrossSiteMiddleware.Check? {
        switch self {
        case .udacitySessionLogin, .udacitySessionLegacyLogin, .signUp, .resetPassword, .ltiOpenWindow, .ltiDeepLink: .sameOrigin
        case .udacitySessionLogout, .udacitySessionLegacyLogout: nil
        // Posted by the learning platform's page, from its origin: the signed id_token and the
        // state (taken once) are what vouch for them.
        case .ltiLoginPost, .ltiLaunch: nil
        default: method == .get ? nil : .sessionWrites
        }
    }

    private static let routes: [APIOperation: (method: HTTPRequest.Method, path: String)] = {
        var routes: [APIOperation: (method: HTTPRequest.Method, path: String)] = [
            .udacitySessionLogin: (.post, "/v1/session"), .udacitySessionLogout: (.delete, "/v1/session"),
            .udacitySessionLegacyLogin: (.post, "/api/session"), .udacitySessionLegacyLogout: (.delete, "/api/session"),
            .udacityUser: (.get, "/v1/users/:id"), .udacityUserLegacy: (.get, "/api/users/:id"),
            .v1Events: (.get, "/v1/StudentLocation/events"),
            .signUp: (.post, "/v1/accounts"), .me: (.get, "/v1/me"), .confirmPassword: (.post, "/v1/me/confirm-password"),
            .geocode: (.get, "/v1/geocode"), .healthz: (.get, "/healthz"), .readyz: (.get, "/readyz"),
            .report: (.post, "/v1/reports"), .resetPassword: (.post, "/v1/password-reset"),
            .adminAccounts: (.get, "/v1/admin/accounts"), .adminChangeAccount: (.patch, "/v1/admin/accounts/:key"),
            .adminPasswordReset: (.post, "/v1/admin/accounts/:key/password-reset"),
            .adminLocations: (.get, "/v1/admin/locations"), .adminChangeLocation: (.patch, "/v1/admin/locations/:objectId"),
            .adminDeleteLocation: (.delete, "/v1/admin/locations/:objectId"),
            .adminReports: (.get, "/v1/admin/reports"), .adminDismissReports: (.post, "/v1/admin/reports/:objectId/dismiss"),
            .adminAudit: (.get, "/v1/admin/audit"), .adminExport: (.get, "/v1/admin/export"),
            .adminLTI: (.get, "/v1/admin/lti"), .adminAddPlatform: (.post, "/v1/admin/lti/platforms"),
            .adminAddDeployment: (.post, "/v1/admin/lti/platforms/:id/deployments"), .adminRemovePlatform: (.delete, "/v1/admin/lti/platforms/:id"),
            .adminRotateToolKey: (.post, "/v1/admin/lti/keys"),
            .startSignIn: (.get, "/v1/oidc/:provider/start"), .finishSignIn: (.get, "/v1/oidc/:provider/callback"),
            .courseShow: (.get, "/v1/course"), .courseChange: (.patch, "/v1/course"), .courseDelete: (.delete, "/v1/course"), .courseInvite: (.post, "/v1/course/invite"),
            .courseJoin: (.post, "/v1/course/join"), .courseMembers: (.get, "/v1/course/members"),
            .courseAddMembers: (.post, "/v1/course/members"), .courseRemoveMember: (.delete, "/v1/course/members/:member"),
            .courseReports: (.get, "/v1/course/reports"), .courseApprovals: (.get, "/v1/course/approvals"),
            .courseChangeLocation: (.patch, "/v1/course/locations/:objectId"),
            .courseDismissReports: (.post, "/v1/course/reports/:objectId/dismiss"), .courseAudit: (.get, "/v1/course/audit"),
            .courseExport: (.get, "/v1/course/export"),
            .myCourses: (.get, "/v1/courses"), .createCourse: (.post, "/v1/courses"),
            .ltiKeySet: (.get, LTIPaths.keySet), .ltiLogin: (.get, LTIPaths.login), .ltiLoginPost: (.post, LTIPaths.login),
            .ltiLaunch: (.post, LTIPaths.launch), .ltiLaunchReload: (.get, LTIPaths.launch), .ltiOpenWindow: (.post, LTIPaths.window),
            .ltiDeepLink: (.post, LTIPaths.deepLink),
        ]
        // The three location families serve one resource each, at their own base path.
        for family in LocationOperations.families {
            routes[family.list] = (.get, family.basePath)
            routes[family.create] = (.post, family.basePath)
            routes[family.read] = (.get, family.basePath + "/:objectId")
            routes[family.update] = (.put, family.basePath + "/:objectId")
            routes[family.delete] = (.delete, family.basePath + "/:objectId")
        }
        return routes
    }()
}

/// The operations of one location family: the same resource at its own base path, in its own
/// error shape.
struct LocationOperations: Sendable {
    let basePath: String
    let family: PathFamily
    let list, create, read, update, delete: APIOperation

    static let v1 = LocationOperations(
        basePath: "/v1/StudentLocation", family: .v1Locations, list: .v1List, create: .v1Create, read: .v1Read, update: .v1Update, delete: .v1Delete)
    static let parse = LocationOperations(
        basePath: "/parse/classes/StudentLocation", family: .parse, list: .parseList, create: .parseCreate, read: .parseRead,
        update: .parseUpdate, delete: .parseDelete)
    static let parse1 = LocationOperations(
        basePath: "/1/classes/StudentLocation", family: .parse, list: .parse1List, create: .parse1Create, read: .parse1Read,
        update: .parse1Update, delete: .parse1Delete)
    static let families = [v1, parse, parse1]
}
