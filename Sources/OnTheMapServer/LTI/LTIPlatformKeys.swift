import Foundation
import JWTKit
import OnTheMapStore

/// The registered platforms' published keys (`PublishedKeys`, one set per platform, kept as for
/// OpenID Connect providers), and a launch's id_token checked against them.
actor LTIPlatformKeys {
    private let http: ProviderHTTP
    private var sets: [Int64: PublishedKeys] = [:]

    init(http: ProviderHTTP = ProviderHTTP()) {
        self.http = http
    }

    /// The launch's claims once its signature (under a key `platform` publishes), audience and
    /// `LTIMessage.check` all hold.
    func verified(_ token: String, from platform: LTIPlatform, nonce: String, now: Date) async throws -> LTIMessage {
        guard let url = URL(string: platform.jwksURL) else { throw LTILaunchFailure.platformUnavailable("unusable keyset URL \(platform.jwksURL)") }
        let keys = sets[platform.id].flatMap { $0.url == url ? $0 : nil } ?? PublishedKeys(url: url, http: http)
        sets[platform.id] = keys
        do {
            return try await keys.verifying { set in try await Self.verified(token, keys: set, platform: platform, nonce: nonce, now: now) }
        } catch is ProviderKeys.NotPublished {
            throw LTILaunchFailure.invalidToken("signed with a key the platform does not publish")
        } catch let failure as SignInFailure {
            throw LTILaunchFailure.platformUnavailable(failure.detail)
        }
    }

    /// `verified` against a key set in hand. A key id the set lacks is `ProviderKeys.NotPublished`
    /// (the set may be out of date); every other failure is an `LTILaunchFailure`.
    static func verified(_ token: String, keys: ProviderKeys, platform: LTIPlatform, nonce: String, now: Date) async throws -> LTIMessage {
        let kid = ProviderKeys.keyID(of: token)
        if let kid, !keys.ids.contains(kid) { throw ProviderKeys.NotPublished() }
        let message: LTIMessage
        do {
            message = try await keys.collection.verify(token, as: LTIMessage.self, expectedAudience: platform.clientID, iteratingKeys: kid == nil)
        } catch {
            throw LTILaunchFailure.invalidToken("\(error)")
        }
        _ = try message.check(issuer: platform.issuer, clientID: platform.clientID, deployments: platform.deploymentIDs, nonce: nonce, now: now)
        return message
    }
}
