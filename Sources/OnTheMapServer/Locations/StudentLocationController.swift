import Foundation
import Hummingbird
import OnTheMapModel

/// `…/StudentLocation[/{objectId}]` for one path family (docs/API.md, "StudentLocation"). The v1 family
/// answers a create with 200; the Parse families with 201 and a `Location` header.
struct StudentLocationController: Sendable {
    /// The family's operations, at its base path.
    let operations: LocationOperations
    let service: LocationService
    let publicURL: PublicURL?

    func addRoutes(to routes: FamilyGroup) {
        routes.add(operations.list, list)
        routes.add(operations.create, create)
        routes.add(operations.read, read)
        routes.add(operations.update, update)
        routes.add(operations.delete, delete)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = try LocationQuery.parse(QueryString.parse(request.uri.query), maxLimit: service.maxListLimit, maxSkip: service.maxSkip)
        let names = try await NamesForReader.names(context)
        // An expensive query is stopped, running or waiting in its lane, when its client goes.
        let answer = query.isIndexed
            ? try await service.list(query, in: context.course, names: names)
            : try await context.untilClientLeaves { [service] in try await service.list(query, in: context.course, names: names) }
        switch answer {
        case .page(let body):
            return JSONResponse.raw(body)
        case .cached(let entry):
            let cached = CachedListAnswer(entry, acceptEncoding: request.headers[.acceptEncoding], ifNoneMatch: request.headers[.ifNoneMatch])
            return Response(status: cached.status, headers: cached.headers, body: cached.body.map { ResponseBody(byteBuffer: $0) } ?? ResponseBody())
        }
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let writer = try await self.writer(of: request, context: context)
        try await service.admit(writer)
        let fields = try LocationFields.parse(try await RequestJSON.value(of: request))
        let saved = try await service.create(fields, in: context.course, by: writer)
        let body = CreatedBody(createdAt: WireTime.formatMillis(saved.createdAt), objectId: saved.objectId)
        if context.facts.family == .v1Locations { return try JSONResponse.make(body) }
        return try JSONResponse.make(body, status: .created, headers: [.location: locationURL(of: saved.objectId, context: context)])
    }

    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> Response {
        let location = try await service.location(objectId: try objectId(context), in: context.course)
        return try JSONResponse.make(NamesForReader.shown(location, as: try await NamesForReader.names(context)))
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let objectId = try objectId(context)
        let writer = try await self.writer(of: request, context: context)
        try await service.admit(writer)
        let fields = try LocationFields.parse(try await RequestJSON.value(of: request))
        let updated = try await service.update(objectId: objectId, in: context.course, with: fields, by: writer)
        return try JSONResponse.make(UpdatedBody(updatedAt: WireTime.formatMillis(updated.updatedAt)))
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let objectId = try objectId(context)
        let writer = try await self.writer(of: request, context: context)
        try await service.admit(writer)
        try await service.delete(objectId: objectId, in: context.course, by: writer)
        return try JSONResponse.make(EmptyBody())
    }

    /// The caller (the group's cross-site check has passed them) and client address of a write.
    private func writer(of request: Request, context: AppRequestContext) async throws -> Writer {
        let caller = try await context.caller()
        return Writer(
            caller: caller, clientAddress: context.clientAddress, heldForApproval: ApprovalRule.holds(in: context.facts.mountedCourse, caller: caller))
    }

    private func objectId(_ context: AppRequestContext) throws(APIError) -> String {
        guard let id = context.parameters.get("objectId"), !id.isEmpty else { throw .notFound("objectId is missing.") }
        return id
    }

    /// Parse's absolute URL of the new object, under its course's path.
    /// Absolute from `--public-url`; without it, a path (RFC 9110 allows a relative `Location`),
    /// never built from the request's `Host`, which a client chooses.
    private func locationURL(of objectId: String, context: AppRequestContext) -> String {
        (publicURL?.origin ?? "") + context.coursePath + operations.basePath + "/" + objectId
    }
}

private struct CreatedBody: Encodable {
    let createdAt: String
    let objectId: String
}

private struct UpdatedBody: Encodable {
    let updatedAt: String
}

private struct EmptyBody: Encodable {}
