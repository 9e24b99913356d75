public import Foundation
public import OpenAPIRuntime
public import OpenAPIURLSession

/// The old protocol, for apps moving off a hand-written networking layer without changing server:
/// the Udacity session API and the Parse `StudentLocation` paths, with what each family needs done
/// (the Udacity answers' `)]}'` prefix stripped, Parse's `where` and `order` built, dates read in the
/// exact form the service sends).
///
/// New code should use ``OnTheMapClient``; this client keeps the old calls' names and shapes so a
/// migration can go one call at a time.
///
/// Like the old apps, it is pointed at a course by its base URL alone: every call goes under the
/// base URL's path, so `https://map.example.edu/c/cs101/` is course cs101's map (with or without
/// the trailing slash).
public struct LegacyClient: Sendable {
    /// Which `StudentLocation` paths the app used.
    public enum Family: String, Sendable, Hashable, CaseIterable {
        /// `/v1/StudentLocation` (Udacity's own API, 2019 on).
        case v1
        /// `/parse/classes/StudentLocation` (Parse Server).
        case parse
        /// `/1/classes/StudentLocation` (parse.com).
        case parse1
    }

    /// Which session paths the app used: `/v1/session` (and `/v1/users`) or `/api/session` (and `/api/users`).
    public enum SessionPaths: String, Sendable, Hashable { case v1, api }

    public let family: Family
    public let sessionStore: any SessionStore
    let api: Client

    public init(
        baseURL: URL, family: Family, sessionPaths: SessionPaths = .v1, transport: any ClientTransport = URLSessionTransport(),
        sessionStore: any SessionStore = InMemorySessionStore()
    ) {
        self.family = family
        self.sessionStore = sessionStore
        var rewrites: [(from: String, to: String)] = []
        if family == .parse1 { rewrites.append((from: "/parse/classes/", to: "/1/classes/")) }
        if sessionPaths == .api {
            rewrites += [(from: "/v1/session", to: "/api/session"), (from: "/v1/users/", to: "/api/users/")]
        }
        api = Client(serverURL: ServerAddress(baseURL, readingCourse: false).root, transport: transport, middlewares: [
            RetryOnceWithKey(), BearerSession(store: sessionStore), PathRewriting(prefixes: rewrites), ErrorAnswers(),
            UdacityPrefixStripping(),
        ])
    }

    // MARK: The Udacity session API

    /// `POST /session`: the account key and session id every old app kept.
    @discardableResult
    public func createSession(username: String, password: String) async throws(OnTheMapError) -> Session {
        let body = Components.Schemas.Credentials(udacity: .init(username: username, password: password))
        let login = try await call { try await api.udacitySessionLogin(body: .json(body)).ok.body.json }
        let session = Session(login)
        try await sessionStore.keeping(session)
        return session
    }

    /// `DELETE /session`.
    public func deleteSession() async throws(OnTheMapError) {
        _ = try await call { try await api.udacitySessionLogout().ok }
        try await sessionStore.keeping(nil)
    }

    /// `GET /users/{key}`: the names an old app put on its post.
    public func userData(key: String) async throws(OnTheMapError) -> (firstName: String, lastName: String, nickname: String) {
        let user = try await call { try await api.udacityUser(path: .init(id: key)).ok.body.json }.user
        return (user.firstName, user.lastName, user.nickname)
    }

    // MARK: StudentLocation

    /// `GET /StudentLocation?limit=…&order=…&where=…`. With a session the names come from the account
    /// on the server, whatever the app sends; old apps' `uniqueKey` filter is `.where(.uniqueKey, .equals(key))`.
    public func studentLocations(_ query: LocationQuery = .latest(100)) async throws(OnTheMapError) -> LocationPage {
        let parameters = try query.parameters()
        let list: Components.Schemas.LocationList
        switch family {
        case .v1:
            list = try await call {
                try await api.v1List(query: .init(limit: parameters.limit, skip: parameters.skip, order: parameters.order,
                                                  _where: parameters.where, count: parameters.count)).ok.body.json
            }
        case .parse, .parse1:
            list = try await call {
                try await api.parseList(query: .init(limit: parameters.limit, skip: parameters.skip, order: parameters.order,
                                                     _where: parameters.where, count: parameters.count)).ok.body.json
            }
        }
        return try LocationPage(list)
    }

    /// `POST /StudentLocation` with every field an old app sent. Open-mode servers store the names
    /// as sent; with a session they come from the account.
    @discardableResult
    public func postStudentLocation(
        uniqueKey: String, firstName: String, lastName: String, _ location: NewLocation
    ) async throws(OnTheMapError) -> PostedLocation {
        var write = Components.Schemas.LocationWrite(location)
        write.uniqueKey = uniqueKey
        write.firstName = firstName
        write.lastName = lastName
        let body = Components.Schemas.LocationCreate(value1: write, value2: .init())
        let created: Components.Schemas.Created
        switch family {
        case .v1: created = try await call { try await api.v1Create(body: .json(body)).ok.body.json }
        case .parse, .parse1: created = try await call { try await api.parseCreate(body: .json(body)).created.body.json }
        }
        return try PostedLocation(created)
    }

    /// `PUT /StudentLocation/{objectId}`: changes the fields given.
    @discardableResult
    public func putStudentLocation(objectId: String, _ location: NewLocation) async throws(OnTheMapError) -> Date {
        let body = Components.Schemas.LocationWrite(location)
        let updated: Components.Schemas.Updated
        switch family {
        case .v1: updated = try await call { try await api.v1Update(path: .init(objectId: objectId), body: .json(body)).ok.body.json }
        case .parse, .parse1:
            updated = try await call { try await api.parseUpdate(path: .init(objectId: objectId), body: .json(body)).ok.body.json }
        }
        return try updated.date()
    }

    /// `DELETE /StudentLocation/{objectId}`.
    public func deleteStudentLocation(objectId: String) async throws(OnTheMapError) {
        switch family {
        case .v1: _ = try await call { try await api.v1Delete(path: .init(objectId: objectId)).ok }
        case .parse, .parse1: _ = try await call { try await api.parseDelete(path: .init(objectId: objectId)).ok }
        }
    }

    private func call<Answer>(_ work: () async throws -> Answer) async throws(OnTheMapError) -> Answer {
        try await callingServer(work)
    }
}
