internal import Foundation
internal import OpenAPIRuntime

/// From the generated wire types to the package's own, and the paperwork both clients share:
/// one place where a generated call's error, a date or a session becomes the package's.

/// Runs a generated call, turning whatever it throws into an ``OnTheMapError``.
func callingServer<Answer>(_ work: () async throws -> Answer) async throws(OnTheMapError) -> Answer {
    do { return try await work() } catch { throw OnTheMapError(from: error) }
}

extension SessionStore {
    /// Keeps (or, with nil, forgets) the session, a failure of the store as an ``OnTheMapError``.
    func keeping(_ session: Session?) async throws(OnTheMapError) {
        do { try await save(session) } catch {
            throw OnTheMapError(kind: .sessionStorage, message: String(describing: error))
        }
    }
}

extension Session {
    init(_ login: Components.Schemas.Login) {
        self.init(id: login.session.id, accountKey: login.account.key, expiration: WireDate.parse(login.session.expiration))
    }
}

extension LocationPage {
    init(_ list: Components.Schemas.LocationList) throws(OnTheMapError) {
        self.init(locations: try list.results.map { wire throws(OnTheMapError) in try StudentLocation(wire) }, count: list.count)
    }
}

extension PostedLocation {
    init(_ created: Components.Schemas.Created) throws(OnTheMapError) {
        guard let createdAt = WireDate.parse(created.createdAt) else { throw .unexpected("createdAt \(created.createdAt) is not a date") }
        self.init(objectId: created.objectId, createdAt: createdAt)
    }
}

extension Components.Schemas.Updated {
    /// When the change was made.
    func date() throws(OnTheMapError) -> Date {
        guard let updatedAt = WireDate.parse(updatedAt) else { throw .unexpected("updatedAt \(updatedAt) is not a date") }
        return updatedAt
    }
}

extension StudentLocation {
    init(_ wire: Components.Schemas.StudentLocation) throws(OnTheMapError) {
        guard let createdAt = WireDate.parse(wire.createdAt), let updatedAt = WireDate.parse(wire.updatedAt) else {
            throw .unexpected("the dates of \(wire.objectId) are not dates: \(wire.createdAt), \(wire.updatedAt)")
        }
        self.init(
            objectId: wire.objectId, uniqueKey: wire.uniqueKey, firstName: wire.firstName, lastName: wire.lastName,
            mapString: wire.mapString, mediaURL: wire.mediaURL, latitude: wire.latitude, longitude: wire.longitude,
            createdAt: createdAt, updatedAt: updatedAt)
    }
}

extension Components.Schemas.LocationWrite {
    init(_ location: NewLocation) {
        self.init(mapString: location.mapString, mediaURL: location.mediaURL, latitude: location.latitude, longitude: location.longitude)
    }
}

extension Place {
    init(_ wire: Components.Schemas.GeocodeResults.ResultsPayloadPayload) {
        self.init(
            name: wire.name, latitude: wire.latitude, longitude: wire.longitude, countryCode: wire.countryCode,
            accuracy: Accuracy(rawValue: wire.accuracy.rawValue) ?? .city, town: wire.town?.name)
    }
}

extension Course {
    /// `server` makes the invite link absolute when the server gives a path (no `--public-url`).
    init(_ wire: Components.Schemas.Course, server: URL) throws(OnTheMapError) {
        var invite: Invite?
        if case .case1(let link)? = wire.invite {
            guard let url = URL(string: link.url.hasPrefix("/") ? server.absoluteString + link.url : link.url) else {
                throw .unexpected("the invite link \(link.url) is not a URL")
            }
            invite = Invite(isEnabled: link.enabled, link: url)
        }
        self.init(
            slug: wire.slug, title: wire.title, visibility: Visibility(rawValue: wire.visibility.rawValue) ?? .members,
            namesShown: NamesShown(rawValue: wire.namesShown.rawValue) ?? .full, approvalRequired: wire.approvalRequired,
            isArchived: wire.archived, createdAt: wire.createdAt, role: wire.role.flatMap { Role(rawValue: $0.rawValue) }, invite: invite)
    }
}
