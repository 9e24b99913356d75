/// Migration 18: LTI 1.3 (issue 43). A learning platform registered by the operator (its issuer
/// and the client id it gave this tool, where it signs users in, publishes its keys and hands out
/// access tokens), the deployments of the tool it made, the tool's own signing keys (the private
/// half sealed under the server's secret, never stored as is) and which platform course is which
/// course here. A login between the platform's initiation and its launch waits in
/// `pending_logins`, as a provider's sign-in does; who a platform's user is here, in
/// `account_identities`.
enum LTISchema {
    static func tables(_ f: any SQLFlavour) -> [String] {
        [
            """
            CREATE TABLE lti_platforms (
                id \(f.generatedKey),
                issuer \(f.text) NOT NULL,
                client_id \(f.text) NOT NULL,
                name \(f.text) NOT NULL,
                authorization_url \(f.text) NOT NULL,
                jwks_url \(f.text) NOT NULL,
                token_url \(f.text) NOT NULL,
                created_at BIGINT NOT NULL,
                UNIQUE (issuer, client_id)
            )
            """,
            """
            CREATE TABLE lti_deployments (
                platform_id BIGINT NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
                deployment_id \(f.text) NOT NULL,
                PRIMARY KEY (platform_id, deployment_id)
            )
            """,
            """
            CREATE TABLE lti_tool_keys (
                kid \(f.text) PRIMARY KEY,
                sealed_private_key \(f.text) NOT NULL,
                created_at BIGINT NOT NULL,
                retired_at BIGINT
            )
            """,
            """
            CREATE TABLE lti_contexts (
                platform_id BIGINT NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
                context_id \(f.text) NOT NULL,
                course_id BIGINT NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
                PRIMARY KEY (platform_id, context_id)
            )
            """,
            "CREATE INDEX lti_contexts_by_course ON lti_contexts (course_id)",
        ]
    }

    /// Migration 19 (expand only): the services a platform course's latest launch named (Names
    /// and Role Provisioning's member list, Assignment and Grade Services' line items), and the
    /// line item the tool made when an instructor turned grading on (none: grading is off).
    static func services(_ f: any SQLFlavour) -> [String] {
        [
            "ALTER TABLE lti_contexts ADD COLUMN memberships_url \(f.text)",
            "ALTER TABLE lti_contexts ADD COLUMN line_items_url \(f.text)",
            "ALTER TABLE lti_contexts ADD COLUMN line_item_url \(f.text)",
        ]
    }
}
