import Hummingbird

/// The tool's LTI 1.3 endpoints (README, "Launched from a learning platform"). Today its public
/// key set, which platforms read to check what the tool signs.
struct LTIController: Sendable {
    let keys: LTIToolKeys

    func addRoutes(to routes: FamilyGroup) {
        routes.add(.ltiKeySet, keySet)
    }

    /// The JWK set (RFC 7517) of the tool's published keys: a platform caches it for a while.
    @Sendable func keySet(_ request: Request, context: AppRequestContext) async throws -> Response {
        try JSONResponse.make(try await keys.publicKeySet(), headers: [.cacheControl: "public, max-age=3600"])
    }
}
