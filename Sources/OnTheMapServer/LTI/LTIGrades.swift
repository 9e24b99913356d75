import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModel
import OnTheMapStore

/// "Post your pin" as a graded activity (Assignment and Grade Services 2.0), chosen per course by
/// its instructor: turned on, the tool makes a line item in each linked platform course's grade
/// book (scored out of 1) and gives a score of 1 to each student who has a pin there already;
/// from then on every post or change of a student's pin sends their 1 again, so an overwrite
/// keeps it. A score goes after the post is answered, with a few tries if the platform is away:
/// the student never waits on the grade book, and a post is never refused because of it.
struct LTIGrades: Sendable {
    let store: any LTIStore & ExternalLoginStore & CourseStore
    let client: LTIServiceClient
    let graded: GradedCourses
    /// Scores on their way at once, at most `maxScoresInFlight`: a grade book that is away for a
    /// while must not gather a task for every post meanwhile. A score left out is sent again with
    /// the student's next post, and every student's when grading is turned on again.
    let inFlight = NIOLockedValueBox(0)
    var maxScoresInFlight = 1_000
    let logger: Logger
    let clock: WallClock
    /// Waits between tries of a score the platform did not take.
    var retryDelays: [Duration] = [.seconds(2), .seconds(10), .seconds(60)]

    static let lineItemType = "application/vnd.ims.lis.v2.lineitem+json"
    static let scoreType = "application/vnd.ims.lis.v1.score+json"

    /// Nil when no linked platform course offers a grade book; else whether posting is graded.
    func state(of course: CourseID) async throws -> Bool? {
        let links = try await store.links(of: course).filter { $0.lineItemsURL != nil }
        return links.isEmpty ? nil : links.contains { $0.lineItemURL != nil }
    }

    /// Turns grading on or off for every linked platform course that offers a grade book. Off
    /// keeps the line item and its scores on the platform; on again makes a new one.
    func setGrading(_ on: Bool, course: Course) async throws {
        let links = try await store.links(of: course.id).filter { $0.lineItemsURL != nil }
        guard !links.isEmpty else { throw APIError.ltiGradesNotOffered }
        defer { graded.forget(course.id) }
        for link in links {
            guard on else {
                try await store.setLineItem(platform: link.platformID, context: link.contextID, url: nil)
                continue
            }
            guard link.lineItemURL == nil, let url = link.lineItemsURL, let platform = try await store.platform(id: link.platformID) else { continue }
            let lineItem: String
            do {
                let answer = try await client.post(
                    url, body: LineItem(label: "Post your pin: \(course.title)"), contentType: Self.lineItemType,
                    scope: LTIServiceClient.lineItemScope, platform: platform)
                guard let made = try? JSONDecoder().decode(MadeLineItem.self, from: Data(buffer: answer)), !made.id.isEmpty else {
                    throw LTIServiceClient.Unavailable(description: "\(url) answered no line item id")
                }
                lineItem = made.id
            } catch let failure as LTIServiceClient.Unavailable {
                logger.notice("LTI line item not made", metadata: ["platform": .stringConvertible(platform.id), "reason": .string(failure.description)])
                throw APIError.ltiGradeBookUnavailable
            }
            try await store.setLineItem(platform: link.platformID, context: link.contextID, url: lineItem)
            // Those who posted before grading was on get their score too.
            let posted = try await store.members(of: course.id, limit: 100_000, skip: 0).filter { $0.pin != nil }.map(\.account)
            for account in posted { score(account, lineItem: lineItem, platform: platform) }
        }
    }

    /// A pin of `account` was posted or changed in `course`: their score goes to every grade book
    /// grading it, in the background.
    func posted(by account: Account, in course: CourseID) {
        Task {
            do {
                for link in try await graded.links(of: course, store: store) {
                    guard let lineItem = link.lineItemURL, let platform = try await store.platform(id: link.platformID) else { continue }
                    score(account, lineItem: lineItem, platform: platform)
                }
            } catch {
                logger.notice("LTI grading not read", metadata: ["course": .stringConvertible(course.rawValue), "reason": .string("\(error)")])
            }
        }
    }

    /// Sends `account`'s 1 to `lineItem`, if the platform knows them (they launched from it).
    private func score(_ account: Account, lineItem: String, platform: LTIPlatform) {
        let admitted = inFlight.withLockedValue { count in
            guard count < maxScoresInFlight else { return false }
            count += 1
            return true
        }
        guard admitted else {
            logger.warning("LTI score left out: too many on their way", metadata: ["platform": .stringConvertible(platform.id)])
            return
        }
        Task {
            defer { inFlight.withLockedValue { $0 -= 1 } }
            let provider = LTILaunchService.identityProvider(issuer: platform.issuer)
            guard let subject = try? await store.identities(accountKey: account.key).first(where: { $0.provider == provider })?.subject else { return }
            let score = Score(userId: subject, timestamp: WireTime.formatMillis(clock.nowMillis()))
            for (attempt, delay) in ([Duration.zero] + retryDelays).enumerated() {
                try? await Task.sleep(for: delay)
                do {
                    _ = try await client.post(Self.scoresURL(lineItem), body: score, contentType: Self.scoreType, scope: LTIServiceClient.scoreScope, platform: platform)
                    return
                } catch {
                    logger.notice("LTI score not taken", metadata: [
                        "platform": .stringConvertible(platform.id), "attempt": .stringConvertible(attempt + 1), "reason": .string("\(error)"),
                    ])
                }
            }
        }
    }

    /// A line item's scores: its URL's path and `/scores`, before any query (AGS 2.0, 3.4).
    static func scoresURL(_ lineItem: String) -> String {
        guard var parts = URLComponents(string: lineItem) else { return lineItem + "/scores" }
        parts.path = (parts.path.hasSuffix("/") ? String(parts.path.dropLast()) : parts.path) + "/scores"
        return parts.string ?? lineItem + "/scores"
    }

    struct LineItem: Encodable {
        var scoreMaximum = 1
        let label: String
        var resourceId = "onthemap-pin"
        var tag = "onthemap-pin"
    }

    struct MadeLineItem: Decodable {
        let id: String
    }

    struct Score: Encodable {
        let userId: String
        var scoreGiven = 1
        var scoreMaximum = 1
        var activityProgress = "Completed"
        var gradingProgress = "FullyGraded"
        let timestamp: String
    }

    /// Which courses' posts are graded, read at most every 30 seconds per course: a post asks
    /// here, not the database, whether a grade book waits for it (another instance may turn
    /// grading on; it is noticed within that time).
    final class GradedCourses: Sendable {
        private let kept = NIOLockedValueBox<[CourseID: (links: [LTICourseLink], readAt: Date)]>([:])
        let lifetime: TimeInterval

        init(lifetime: TimeInterval = 30) {
            self.lifetime = lifetime
        }

        func links(of course: CourseID, store: any LTIStore) async throws -> [LTICourseLink] {
            if let entry = kept.withLockedValue({ $0[course] }), Date().timeIntervalSince(entry.readAt) < lifetime { return entry.links }
            let links = try await store.links(of: course).filter { $0.lineItemURL != nil }
            kept.withLockedValue { kept in
                if kept.count >= 10_000 { kept.removeAll() }
                kept[course] = (links, Date())
            }
            return links
        }

        func forget(_ course: CourseID) {
            _ = kept.withLockedValue { $0.removeValue(forKey: course) }
        }
    }
}
