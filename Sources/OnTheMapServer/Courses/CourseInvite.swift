import Crypto
import Foundation
import OnTheMapModel

/// A course's invite link, `/c/{slug}/join/{token}`. The token is a MAC of the course and its
/// invite generation under the server's secret: the same link each time an instructor looks (for
/// a projector, a QR code), never stored, so a copy of the database holds none; turning it over
/// (`Course.inviteGeneration`) ends the old one, and switching it off ends both. A new server
/// secret makes new links.
struct CourseInvite: Sendable {
    let secret: ServerSecret

    /// The course's live token: 128 bits, base64url (22 characters).
    func token(for course: Course) -> String {
        let mac = secret.mac("course invite", [
            withUnsafeBytes(of: course.id.rawValue.bigEndian, Array.init), withUnsafeBytes(of: course.inviteGeneration.bigEndian, Array.init),
        ])
        return Base64URL.encode(Data(Array(mac).prefix(16)))
    }

    /// Whether `token` lets a student join `course` now.
    func admits(_ token: String, to course: Course) -> Bool {
        guard course.inviteEnabled, !course.isArchived else { return false }
        return ConstantTime.equal(self.token(for: course), token)
    }

    /// Whether `text` has a token's shape (22 base64url characters), so that it may go into an
    /// address unescaped; whether it admits anyone is `admits`' to say.
    static func looksLikeToken(_ text: String) -> Bool {
        text.utf8.count == 22 && text.utf8.allSatisfy { Base64URL.isAlphabet($0) }
    }

    /// The link's path on the server.
    func path(for course: Course) -> String {
        CourseMount.path(of: course.slug) + "/join/" + token(for: course)
    }
}
