import Hummingbird

/// A launch tied to the browser that began it (the 1EdTech Security Framework's advice for
/// `state`): the login initiation sets a cookie holding a secret of its own, whose hash waits with
/// the pending login, and the launch is taken only with it. Without it, someone who stopped their
/// own launch at the platform's form could have another site post it from a student's browser,
/// which would then show, and post to, the attacker's map. The cookie is partitioned (CHIPS): a
/// platform's frame keeps it, for the launch in that frame, where browsers refuse other
/// third-party cookies; it is named after the state, so that two launches at once keep theirs.
enum LTIBrowserBinding {
    /// The cookie's lifetime: the pending login's (`LTILaunchService.pendingLifetimeMillis`).
    static let lifetimeSeconds = 300

    static func cookieName(state: String) -> String {
        "otm_lti_" + String(SessionToken.hash(state).prefix(16))
    }

    /// The `Set-Cookie` line that keeps `secret` for the launch of `state`.
    static func cookie(state: String, secret: String) -> String {
        line(cookieName(state: state), secret, maxAge: lifetimeSeconds)
    }

    /// The line that forgets it once the launch has used it.
    static func forget(state: String) -> String {
        line(cookieName(state: state), "", maxAge: 0)
    }

    /// The secret the browser kept for `state`, if it sent one.
    static func secret(in request: Request, state: String) -> String? {
        guard !state.isEmpty, let value = request.cookies[cookieName(state: state)]?.value, !value.isEmpty else { return nil }
        return value
    }

    /// `SameSite=None` (the launch is a cross-site post from the platform), which needs `Secure`;
    /// browsers keep `Secure` cookies of http://localhost too, where platforms are tried out.
    private static func line(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/lti/; Max-Age=\(maxAge); HttpOnly; Secure; SameSite=None; Partitioned"
    }
}
