import Foundation
import Logging
import NIOCore
import OnTheMapModel
import OnTheMapStore

/// The platform's class list beside a course's roster (Names and Role Provisioning Services 2.0):
/// the people a linked platform course lists who are not members here yet, because they have
/// never opened the map, so that "who has not posted" counts them. Read with the tool's own
/// token (`LTIServiceClient`) from the member list URL the platform course's latest launch named,
/// and kept a minute, so that an instructor paging through the roster asks the platform once.
struct LTIRoster: Sendable {
    let store: any LTIStore & ExternalLoginStore & CourseStore
    let client: LTIServiceClient
    let lists: ListCache
    let logger: Logger

    /// A person on a platform's list.
    struct Person: Sendable, Equatable {
        let name: String
        let email: String?
        let teaches: Bool
        /// The platform's name for the operator ("Canvas at Example University").
        let platform: String
    }

    /// What the platforms list, and the platforms whose list could not be read just now.
    struct Listed: Sendable {
        let people: [Person]
        let unavailable: [String]
    }

    /// The people the linked platform courses list who are not members of `course`; nil when no
    /// linked platform course offers its member list.
    func notMembers(of course: CourseID) async throws -> Listed? {
        let links = try await store.links(of: course).filter { $0.membershipsURL != nil }
        guard !links.isEmpty else { return nil }
        var people: [Person] = [], unavailable: [String] = []
        for link in links {
            guard let platform = try await store.platform(id: link.platformID), let url = link.membershipsURL else { continue }
            let members: [Member]
            do {
                members = try await lists.members(at: url, of: platform.id) { try await read(url, platform: platform) }
            } catch {
                logger.notice("LTI member list unavailable", metadata: ["platform": .stringConvertible(platform.id), "reason": .string("\(error)")])
                unavailable.append(platform.name)
                continue
            }
            let provider = LTILaunchService.identityProvider(issuer: platform.issuer)
            for member in members where member.isActive {
                if let account = try await store.account(provider: provider, subject: member.userID),
                   try await store.role(of: account.key, in: course) != nil { continue }
                people.append(Person(name: member.displayName, email: member.email, teaches: member.teaches, platform: platform.name))
            }
        }
        return Listed(people: people.sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }, unavailable: unavailable)
    }

    /// The members as their instructors see them: a launched person's account has an address of
    /// its own (`LTILaunchService.account`), so the email their platform shares is shown instead.
    func shownEmails(_ members: [CourseMember]) async throws -> [CourseMember] {
        var shown = members
        for index in shown.indices where shown[index].account.email.hasSuffix(LTILaunchService.placeholderSuffix) {
            let links = try await store.identities(accountKey: shown[index].account.key)
            if let shared = links.first(where: { $0.provider.hasPrefix("lti ") && !$0.email.hasSuffix(LTILaunchService.placeholderSuffix) }) {
                shown[index].account.email = shared.email
            }
        }
        return shown
    }

    /// Every page of a member list (at most `maxPages`: a course of many thousands is listed in part).
    private func read(_ url: String, platform: LTIPlatform) async throws -> [Member] {
        var members: [Member] = [], next: String? = url
        for _ in 0..<Self.maxPages {
            guard let page = next else { break }
            let (body, following) = try await client.get(
                page, accept: "application/vnd.ims.lti-nrps.v2.membershipcontainer+json", scope: LTIServiceClient.membershipScope, platform: platform)
            guard let container = try? JSONDecoder().decode(Container.self, from: Data(buffer: body)) else {
                throw LTIServiceClient.Unavailable(description: "\(page) answered no member list")
            }
            members += container.members
            next = following
        }
        return members
    }

    static let maxPages = 20

    struct Container: Decodable {
        let members: [Member]
    }

    /// A member as NRPS 2.0 lists them: the platform's id for them (a launch's `sub`), their roles,
    /// and their name and email where the platform's privacy settings share them.
    struct Member: Decodable, Sendable {
        let userID: String
        let roles: [String]
        var status: String? = nil
        var name: String? = nil
        var givenName: String? = nil
        var familyName: String? = nil
        var email: String? = nil

        enum CodingKeys: String, CodingKey {
            case userID = "user_id", roles, status, name, givenName = "given_name", familyName = "family_name", email
        }

        var isActive: Bool { (status ?? "Active") == "Active" }

        var teaches: Bool { LTIRoles.teach(roles) }

        var displayName: String {
            let full = Validation.nameFromElsewhere(name)
            if !full.isEmpty { return full }
            let parts = [givenName, familyName].map(Validation.nameFromElsewhere).filter { !$0.isEmpty }
            return parts.isEmpty ? (email ?? userID) : parts.joined(separator: " ")
        }
    }

    /// Member lists as read lately, by URL.
    actor ListCache {
        /// By platform and URL: one platform's list is never another's answer.
        private var lists: [String: (members: [Member], readAt: Date)] = [:]
        let lifetime: TimeInterval

        init(lifetime: TimeInterval = 60) {
            self.lifetime = lifetime
        }

        func members(at url: String, of platform: Int64, read: @Sendable () async throws -> [Member]) async throws -> [Member] {
            let url = "\(platform) \(url)"
            if let kept = lists[url], Date().timeIntervalSince(kept.readAt) < lifetime { return kept.members }
            let members = try await read()
            // A few dozen courses' lists at most are kept; the oldest go first.
            if lists.count >= 64, let oldest = lists.min(by: { $0.value.readAt < $1.value.readAt })?.key { lists[oldest] = nil }
            lists[url] = (members, Date())
            return members
        }
    }
}
