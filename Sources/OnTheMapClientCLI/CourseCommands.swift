import ArgumentParser
import Foundation
import OnTheMapKit

/// `courses`: the account's courses, a new one, one course's details, joining one by its invite.
struct Courses: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courses", abstract: "Your courses: list them, make one, show one, join one with its invite link.",
        subcommands: [ListCourses.self, CreateCourse.self, ShowCourse.self, JoinCourse.self])
}

struct ListCourses: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The courses you are in, and your role in each.")
    @OptionGroup var connection: Connection

    func run() async throws {
        try await connection.run { client, output in
            for course in try await client.myCourses() { output.course(course) }
        }
    }
}

struct CreateCourse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Make a course, taught by you.",
        discussion: "Its invite link starts switched off: switch it on in the web client's course page.")
    @OptionGroup var connection: Connection
    @Option(help: "Its address, /c/SLUG/: 2 to 48 lower-case letters, digits and single hyphens.") var slug: String
    @Option(help: "Its title.") var title: String
    @Option(help: "Who may read its map: members, or anyone with its address (link).") var visibility = Course.Visibility.members.rawValue

    func validate() throws {
        guard Course.Visibility(rawValue: visibility) != nil else { throw ValidationError("--visibility must be members or link, not \(visibility)") }
    }

    func run() async throws {
        try await connection.run { client, output in
            let course = try await client.createCourse(slug: slug, title: title, visibility: Course.Visibility(rawValue: visibility) ?? .members)
            output.course(course)
        }
    }
}

struct ShowCourse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "The course --course names (the default course without it), with its invite link if you teach it.")
    @OptionGroup var connection: Connection

    func run() async throws {
        try await connection.run { client, output in output.course(try await client.courseDetails()) }
    }
}

struct JoinCourse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join", abstract: "Join a course with its invite link, as a student.",
        discussion: "Give the link as the instructor shared it, https://…/c/SLUG/join/TOKEN, or its token alone with --course SLUG.")
    @OptionGroup var connection: Connection
    @Argument(help: "The invite link, or its token with --course.") var invite: String

    func run() async throws {
        try await connection.run { client, output in output.joined(try await client.join(try invitation(to: client.courseSlug))) }
    }

    /// The link's course and token; a token alone is for the course the client uses.
    private func invitation(to course: String?) throws -> InviteLink {
        if let url = URL(string: invite), let link = InviteLink(url) { return link }
        guard !invite.contains("/"), let course else {
            throw ValidationError("\(invite) is not an invite link (https://…/c/SLUG/join/TOKEN); a token alone needs --course SLUG")
        }
        return InviteLink(slug: course, token: invite)
    }
}
