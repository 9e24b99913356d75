import ArgumentParser
import Foundation
import OnTheMapModel
import OnTheMapServer
import OnTheMapStore

/// `onthemap course …`: an operator's courses, directly in the database (the web app's course
/// page does the same for instructors). Every rule is `CourseService`'s.
struct CourseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "course",
        abstract: "Add, list, show, archive and delete courses; their invite links and members.",
        subcommands: [Add.self, List.self, Show.self, Archive.self, Delete.self, Invite.self, Members.self])

    /// Runs `body` with the course service on the database, its failures said plainly.
    static func withCourses<T>(
        _ database: DatabaseOptions, secret: SecretOptions? = nil, _ body: (CourseService, SQLStore) async throws -> T
    ) async throws -> T {
        let serverSecret = try secret.map { try $0.existingSecret(for: try database.location()) } ?? ServerSecret.perProcess
        return try await UserCommand.withStore(database) { store in
            if secret != nil { try await checkServed(store, with: serverSecret) }
            do {
                return try await body(CourseService(store: store, secret: serverSecret), store)
            } catch let error as APIError {
                throw CommandFailure(error.message)
            }
        }
    }

    /// An invite link is made with the servers' secret: a different one would print a link
    /// that does not work.
    private static func checkServed(_ store: SQLStore, with secret: ServerSecret) async throws {
        if case .differs = try await store.recordServerSecretDigest(secret.checkDigest, replacing: false, now: WallClock.system.nowMillis()) {
            throw CommandFailure("this database is served with another secret file: pass the servers' one with --secret-file.")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a course, taught by an existing account.")

        @Option(help: "The course's address: /c/<slug>/ (2 to 48 lower-case letters, digits and single hyphens).") var slug: String
        @Option(help: "Its title, as students see it.") var title: String
        @Option(help: "Email of the account that teaches it (its first instructor).") var instructor: String
        @Option(help: "Who may read its map: members (the default) or link (anyone with its address).") var visibility: Course.Visibility = .members
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let course = try await CourseCommand.withCourses(database) { courses, store in
                guard let teacher = try await store.account(email: Validation.normalizedEmail(instructor)) else {
                    throw CommandFailure("no account with email \(instructor); add it first with onthemap user add.")
                }
                let course = try await courses.create(slug: slug, title: title, instructor: teacher, by: nil)
                return try await courses.change(course, to: .init(visibility: visibility), by: nil)
            }
            print("Added course \(course.slug) (\(course.title)), taught by \(Validation.normalizedEmail(instructor)).")
            print("Apps use the base URL <your server>/c/\(course.slug); invite students with: onthemap course invite \(course.slug) --on")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every course.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let courses = try await CourseCommand.withCourses(database) { courses, _ in try await courses.allCourses() }
            print(["SLUG", "TITLE", "READ BY", "STATE", "CREATED"].joined(separator: "\t"))
            for course in courses {
                print([course.slug.rawValue, course.title, course.isReadableByAnyone ? "anyone" : "members",
                       course.isArchived ? "archived" : "open",
                       // The default course of a database made empty has no date of its own.
                       course.createdAt > 0 ? WireTime.formatMillis(course.createdAt) : "-"].joined(separator: "\t"))
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a course's settings and how many belong to it.")

        @Argument(help: "The course's slug.") var slug: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await CourseCommand.withCourses(database) { courses, _ in
                let course = try await courses.course(slug)
                let roster = try await courses.roster(of: course, limit: Int.max)
                let waiting = try await courses.waiting(for: course)
                print("""
                    \(course.title) (/c/\(course.slug)/)
                    read by:      \(course.isReadableByAnyone ? "anyone with its address" : "its members")
                    names shown:  \(course.namesShown.rawValue)
                    approval:     \(course.approvalRequired ? "instructors approve each pin" : "pins show at once")
                    state:        \(course.isArchived ? "archived (read-only)" : "open")
                    invite link:  \(course.inviteEnabled ? "on (onthemap course invite \(course.slug) prints it)" : "off")
                    instructors:  \(roster.filter { $0.role == .instructor }.map(\.account.email).joined(separator: ", "))
                    students:     \(roster.filter { $0.role == .student }.count)
                    posted:       \(roster.filter { $0.pin != nil }.count) of its \(roster.count) members
                    waiting:      \(waiting.count) on the class list without an account yet
                    """)
            }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Archive a course: its map stays readable and takes no more posts.")

        @Argument(help: "The course's slug.") var slug: String
        @Flag(help: "Open it again.") var undo = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await CourseCommand.withCourses(database) { courses, _ in
                _ = try await courses.change(try await courses.course(slug), to: .init(archived: !undo), by: nil)
            }
            print(undo ? "Course \(slug) is open again." : "Course \(slug) is archived: its map is read-only.")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a course with its pins, reports, members and class list (the audit log keeps its entries).")

        @Argument(help: "The course's slug.") var slug: String
        @Option(help: "The course's slug again, to confirm.") var confirm: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await CourseCommand.withCourses(database) { courses, _ in
                try await courses.delete(try await courses.course(slug), confirmation: confirm, by: nil)
            }
            print("Deleted course \(slug) with its pins.")
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a course's invite link; switch it on or off, or replace it with a new one.",
            discussion: "The link is made with the server's secret: give the same --secret-file as the servers.")

        @Argument(help: "The course's slug.") var slug: String
        @Flag(help: "Let the link admit students.") var on = false
        @Flag(help: "Stop the link admitting anyone.") var off = false
        @Flag(name: .customLong("new"), help: "Replace the link: the old one stops working.") var new = false
        @Option(name: .customLong("public-url"), help: "The origin the servers are reached at, to print the whole link (else its path).")
        var publicURL: String?
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var secret: SecretOptions

        func validate() throws {
            guard [on, off, new].filter({ $0 }).count <= 1 else { throw ValidationError("Give at most one of --on, --off and --new.") }
            if let publicURL, PublicURL(publicURL) == nil {
                throw ValidationError("--public-url must be an origin such as https://map.example.org; got \"\(publicURL)\".")
            }
        }

        func run() async throws {
            let (course, path) = try await CourseCommand.withCourses(database, secret: secret) { courses, _ in
                var course = try await courses.course(slug)
                if on || off || new { course = try await courses.setInvite(of: course, enabled: !off, turnOver: new, by: nil) }
                return (course, courses.invitePath(for: course))
            }
            let link = (publicURL.flatMap(PublicURL.init)?.origin ?? "") + path
            print(course.inviteEnabled ? "Invite link (on): \(link)" : "Invite link (off; --on lets it admit students): \(link)")
        }
    }

    struct Members: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a course's members, or add and remove them.",
            discussion: """
                --add reads a class list (a file, or - for standard input): one student a line, in any layout that holds their \
                email (a spreadsheet's rows, "Name <email>", plain emails). Students without an account yet join when they make one.
                """)

        @Argument(help: "The course's slug.") var slug: String
        @Option(help: "A class list to add (a file, or - for standard input).") var add: String?
        @Option(help: "An email to add (repeatable).") var addEmail: [String] = []
        @Option(help: "The role those added get: student or instructor.") var role: CourseRole = .student
        @Option(help: "An email to remove (repeatable).") var remove: [String] = []
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            var list = ClassList(addEmail.joined(separator: "\n"))
            if let add {
                let text = add == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                    : try String(contentsOfFile: add, encoding: .utf8)
                let fromFile = ClassList(text)
                list = ClassList((list.emails + fromFile.emails).joined(separator: "\n"))
                for line in fromFile.unreadable { print("Skipped (no email): \(line)") }
            }
            try await CourseCommand.withCourses(database) { courses, _ in
                let course = try await courses.course(slug)
                for addition in try await courses.add(list, as: role, to: course, by: nil) {
                    switch addition {
                    case .added(let account): print("Added \(account.email) as \(role.rawValue).")
                    case .alreadyMember(let account): print("\(account.email) was a member; now \(role.rawValue).")
                    case .waiting(let email): print("\(email) has no account yet: joins as \(role.rawValue) on signing up.")
                    }
                }
                for email in remove {
                    print(try await courses.remove(email: email, from: course, by: nil) ? "Removed \(email)." : "\(email) was not a member.")
                }
                guard list.emails.isEmpty, remove.isEmpty else { return }
                print(["EMAIL", "NAME", "ROLE", "JOINED", "POSTED"].joined(separator: "\t"))
                for member in try await courses.roster(of: course, limit: Int.max) {
                    print([member.account.email, "\(member.account.firstName) \(member.account.lastName)", member.role.rawValue,
                           WireTime.formatMillis(member.joinedAt), member.pin.map { WireTime.formatMillis($0.location.updatedAt) } ?? "not yet"]
                        .joined(separator: "\t"))
                }
                for waiting in try await courses.waiting(for: course) {
                    print([waiting.email, "", waiting.role.rawValue, "waiting for an account", ""].joined(separator: "\t"))
                }
            }
        }
    }
}

extension Course.Visibility: ExpressibleByArgument {}
extension CourseRole: ExpressibleByArgument {}
