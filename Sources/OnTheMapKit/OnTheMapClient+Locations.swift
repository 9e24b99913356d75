public import Foundation
internal import OpenAPIRuntime

extension OnTheMapClient {
    /// The newest pins first, as every app shows them on start. The server answers this one from
    /// memory.
    public func latest(limit: Int = 100) async throws(OnTheMapError) -> [StudentLocation] {
        try await locations(.latest(limit)).locations
    }

    /// Pins matching a query: see ``LocationQuery``.
    public func locations(_ query: LocationQuery) async throws(OnTheMapError) -> LocationPage {
        let parameters = try query.parameters()
        let list = try await call {
            try await api.v1List(query: .init(
                limit: parameters.limit, skip: parameters.skip, order: parameters.order, _where: parameters.where,
                count: parameters.count)).ok.body.json
        }
        return try LocationPage(list)
    }

    /// One pin by its id (``OnTheMapError/Kind/notFound`` when there is none, or a moderator hid it).
    public func location(id objectId: String) async throws(OnTheMapError) -> StudentLocation {
        try StudentLocation(try await call { try await api.v1Read(path: .init(objectId: objectId)).ok.body.json })
    }

    /// Posts the student's pin. An account has one pin: posting again overwrites it (same
    /// `objectId`), so ask the student before posting over ``Me/location``.
    @discardableResult
    public func post(_ location: NewLocation) async throws(OnTheMapError) -> PostedLocation {
        let body = Components.Schemas.LocationCreate(value1: .init(location), value2: .init())
        return try PostedLocation(try await call { try await api.v1Create(body: .json(body)).ok.body.json })
    }

    /// Replaces what a pin says (only its owner, or a moderator, may). Returns when it was changed.
    @discardableResult
    public func overwrite(_ objectId: String, with location: NewLocation) async throws(OnTheMapError) -> Date {
        try await call { try await api.v1Update(path: .init(objectId: objectId), body: .json(.init(location))).ok.body.json }.date()
    }

    /// Deletes a pin (only its owner, or a moderator, may).
    public func delete(_ objectId: String) async throws(OnTheMapError) {
        _ = try await call { try await api.v1Delete(path: .init(objectId: objectId)).ok }
    }

    /// What the server's offline geocoder makes of what a student typed: "Seattle, WA",
    /// "close to Lima", a postcode or an address. Junk (an email, a phone number) finds nothing.
    public func geocode(_ text: String, limit: Int = 5) async throws(OnTheMapError) -> GeocodeAnswer {
        let answer = try await call { try await api.geocode(query: .init(q: text, limit: limit)).ok.body.json }
        return GeocodeAnswer(
            doubts: answer.doubts.map(\.rawValue),
            confidence: answer.confidence == .low ? .low : .high,
            places: answer.results.map(Place.init))
    }
}
