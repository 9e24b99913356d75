import OnTheMapModel

/// Proof that this browser (or app) has logged in to an account before: a cookie set at each login
/// with a password, signed with the server's secret. Many failed logins for one account, from any
/// number of addresses, stop further tries from devices without it (OWASP's "device cookies"), so
/// a distributed guesser is slowed while the owner, on a device they used before, still logs in.
struct DeviceCookie: Sendable {
    static let lifetimeSeconds: Int64 = 365 * 86_400

    let secret: ServerSecret

    /// A new cookie value for `accountKey`: the key, a random nonce and their MAC.
    func issue(for accountKey: String) -> String {
        let nonce = Identifiers.token(bytes: 16)
        return "\(accountKey).\(nonce).\(mac(accountKey, nonce))"
    }

    /// Whether `value` is a cookie this server issued for `accountKey`.
    func vouches(_ value: String?, for accountKey: String) -> Bool {
        guard let parts = value?.split(separator: ".", omittingEmptySubsequences: false), parts.count == 3,
              parts[0] == accountKey else { return false }
        return ConstantTime.equal(mac(String(parts[0]), String(parts[1])), parts[2])
    }

    private func mac(_ accountKey: String, _ nonce: String) -> String {
        secret.hex("device", [Array(accountKey.utf8), Array(nonce.utf8)])
    }
}
