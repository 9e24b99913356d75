import OnTheMapModel
import SQLKit

extension SQLStore: LTIStore {
    static let platformColumns = "id, issuer, client_id, name, authorization_url, jwks_url, token_url, created_at"

    public func addPlatform(_ platform: LTIPlatform, audit: AuditEntry?) async throws -> LTIPlatform {
        let registration: SQLQueryString = "FROM lti_platforms WHERE issuer = \(bind: platform.issuer) AND client_id = \(bind: platform.clientID)"
        let deployments = platform.deploymentIDs.map { id in
            SQLQueryString("INSERT INTO lti_deployments (platform_id, deployment_id) SELECT id, \(bind: id) \(registration)") as any SQLExpression
        }
        do {
            let id = try await writer.perform(WriteUnit([SQLQueryString("""
                INSERT INTO lti_platforms (issuer, client_id, name, authorization_url, jwks_url, token_url, created_at)
                VALUES (\(bind: platform.issuer), \(bind: platform.clientID), \(bind: platform.name), \(bind: platform.authorizationURL),
                        \(bind: platform.jwksURL), \(bind: platform.tokenURL), \(bind: platform.createdAt))
                RETURNING id
                """)] + deployments + (audit.map { [Self.insert($0)] } ?? [])) { rows in (try rows[0][0].decode(column: "id", as: Int64.self), []) })
            var added = platform
            added.id = id
            return added
        } catch {
            if try await self.platform(issuer: platform.issuer, clientID: platform.clientID) != nil { throw StoreError.keyTaken }
            throw error
        }
    }

    public func platforms() async throws -> [LTIPlatform] {
        try await platforms(where: "")
    }

    public func platform(id: Int64) async throws -> LTIPlatform? {
        try await platforms(where: "WHERE id = \(bind: id)").first
    }

    public func platform(issuer: String, clientID: String) async throws -> LTIPlatform? {
        guard issuer.isStorable, clientID.isStorable else { return nil }
        return try await platforms(where: "WHERE issuer = \(bind: issuer) AND client_id = \(bind: clientID)").first
    }

    /// The platforms `condition` selects, each with its deployments (a second read).
    private func platforms(where condition: SQLQueryString) async throws -> [LTIPlatform] {
        var platforms = try await reader.raw("SELECT \(unsafeRaw: Self.platformColumns) FROM lti_platforms \(condition) ORDER BY id")
            .all().map { row in
                LTIPlatform(
                    id: try row.decode(column: "id", as: Int64.self), issuer: try row.decode(column: "issuer", as: String.self),
                    clientID: try row.decode(column: "client_id", as: String.self), name: try row.decode(column: "name", as: String.self),
                    authorizationURL: try row.decode(column: "authorization_url", as: String.self),
                    jwksURL: try row.decode(column: "jwks_url", as: String.self), tokenURL: try row.decode(column: "token_url", as: String.self),
                    deploymentIDs: [], createdAt: try row.decode(column: "created_at", as: Int64.self))
            }
        guard !platforms.isEmpty else { return [] }
        let rows = try await reader.raw("""
            SELECT platform_id, deployment_id FROM lti_deployments WHERE platform_id IN (\(binds: platforms.map(\.id)))
            ORDER BY deployment_id
            """).all()
        var deployments: [Int64: [String]] = [:]
        for row in rows {
            deployments[try row.decode(column: "platform_id", as: Int64.self), default: []].append(try row.decode(column: "deployment_id", as: String.self))
        }
        for index in platforms.indices { platforms[index].deploymentIDs = deployments[platforms[index].id] ?? [] }
        return platforms
    }

    public func addDeployment(_ deploymentID: String, toPlatform id: Int64, audit: AuditEntry?) async throws -> Bool {
        try await writer.perform(WriteUnit([SQLQueryString("""
            INSERT INTO lti_deployments (platform_id, deployment_id) VALUES (\(bind: id), \(bind: deploymentID))
            ON CONFLICT (platform_id, deployment_id) DO NOTHING RETURNING deployment_id
            """)] + (audit.map { [Self.insert($0)] } ?? [])) { rows in (!rows[0].isEmpty, []) })
    }

    public func removePlatform(id: Int64, audit: AuditEntry?) async throws -> Bool {
        // The entry only when there is a platform to remove, written before it goes.
        let entry = audit.map { [Self.insert($0, when: "FROM lti_platforms WHERE id = \(bind: id)")] } ?? []
        return try await writer.perform(WriteUnit(entry + [SQLQueryString("DELETE FROM lti_platforms WHERE id = \(bind: id) RETURNING id")]) { rows in
            (!rows[entry.count].isEmpty, [])
        })
    }

    public func toolKeys() async throws -> [LTIToolKey] {
        try await reader.raw("SELECT kid, sealed_private_key, created_at, retired_at FROM lti_tool_keys ORDER BY created_at DESC, kid")
            .all().map(Self.toolKey(from:))
    }

    public func rotateToolKey(to key: LTIToolKey, dropRetiredBefore: Int64, audit: AuditEntry?) async throws {
        try await writer.perform(WriteUnit([
            SQLQueryString("DELETE FROM lti_tool_keys WHERE retired_at IS NOT NULL AND retired_at < \(bind: dropRetiredBefore)"),
            SQLQueryString("UPDATE lti_tool_keys SET retired_at = \(bind: key.createdAt) WHERE retired_at IS NULL"),
            Self.insert(key),
        ] + (audit.map { [Self.insert($0)] } ?? [])) { _ in ((), []) })
    }

    public func addFirstToolKey(_ key: LTIToolKey) async throws -> [LTIToolKey] {
        // The condition and the insert in one statement, under the writer's turn: of two
        // instances starting at once, the second finds the first's key.
        try await writer.run(SQLQueryString("""
            INSERT INTO lti_tool_keys (kid, sealed_private_key, created_at, retired_at)
            SELECT \(bind: key.kid), \(bind: key.sealedPrivateKey), \(bind: key.createdAt), NULL
            WHERE NOT EXISTS (SELECT 1 FROM lti_tool_keys)
            """))
        return try await toolKeys()
    }

    static func insert(_ key: LTIToolKey) -> SQLQueryString {
        """
        INSERT INTO lti_tool_keys (kid, sealed_private_key, created_at, retired_at)
        VALUES (\(bind: key.kid), \(bind: key.sealedPrivateKey), \(bind: key.createdAt), \(bind: key.retiredAt))
        """
    }

    static func toolKey(from row: any SQLRow) throws -> LTIToolKey {
        LTIToolKey(
            kid: try row.decode(column: "kid", as: String.self), sealedPrivateKey: try row.decode(column: "sealed_private_key", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self), retiredAt: try row.optionalInt64(column: "retired_at"))
    }

    public func course(platform: Int64, context: String) async throws -> CourseID? {
        guard context.isStorable else { return nil }
        return try await reader.raw("""
            SELECT course_id FROM lti_contexts WHERE platform_id = \(bind: platform) AND context_id = \(bind: context)
            """).first().map { CourseID(rawValue: try $0.decode(column: "course_id", as: Int64.self)) }
    }

    public func link(platform: Int64, context: String, to course: CourseID) async throws -> Bool {
        try await !writer.run(SQLQueryString("""
            INSERT INTO lti_contexts (platform_id, context_id, course_id) VALUES (\(bind: platform), \(bind: context), \(bind: course.rawValue))
            ON CONFLICT (platform_id, context_id) DO NOTHING RETURNING course_id
            """)).isEmpty
    }

    public func links(of course: CourseID) async throws -> [LTICourseLink] {
        try await reader.raw("""
            SELECT platform_id, context_id, course_id, memberships_url, line_items_url, line_item_url FROM lti_contexts
            WHERE course_id = \(bind: course.rawValue) ORDER BY platform_id, context_id
            """).all().map { row in
            LTICourseLink(
                platformID: try row.decode(column: "platform_id", as: Int64.self), contextID: try row.decode(column: "context_id", as: String.self),
                courseID: CourseID(rawValue: try row.decode(column: "course_id", as: Int64.self)),
                membershipsURL: try row.decode(column: "memberships_url", as: String?.self),
                lineItemsURL: try row.decode(column: "line_items_url", as: String?.self), lineItemURL: try row.decode(column: "line_item_url", as: String?.self))
        }
    }

    public func noteServices(platform: Int64, context: String, membershipsURL: String?, lineItemsURL: String?) async throws {
        guard context.isStorable, membershipsURL?.isStorable ?? true, lineItemsURL?.isStorable ?? true else { return }
        try await writer.run(SQLQueryString("""
            UPDATE lti_contexts SET memberships_url = COALESCE(\(bind: membershipsURL), memberships_url),
                line_items_url = COALESCE(\(bind: lineItemsURL), line_items_url)
            WHERE platform_id = \(bind: platform) AND context_id = \(bind: context)
            """))
    }

    public func setLineItem(platform: Int64, context: String, url: String?) async throws {
        try await writer.run(SQLQueryString("""
            UPDATE lti_contexts SET line_item_url = \(bind: url) WHERE platform_id = \(bind: platform) AND context_id = \(bind: context)
            """))
    }
}
