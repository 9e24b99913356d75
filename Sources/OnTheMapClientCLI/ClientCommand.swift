import ArgumentParser
import Foundation
import OnTheMapKit
import OnTheMapKitAsyncHTTPClient

/// `onthemap-client`: On The Map from a terminal, built on OnTheMapKit and nothing else. Its
/// commands are what an app does: sign up or log in, list, post, watch the live map.
@main
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onthemap-client",
        abstract: "Use an On The Map server from the command line.",
        discussion: """
            The session is kept in a file only you can read (--session-file), one per server, so that \
            later commands are logged in, in every course. Passwords are read from ONTHEMAP_PASSWORD, or \
            from standard input with --password-stdin, or asked for.

            login, logout, me, list, post, delete and watch use the server's default course, or the \
            course named by --course (or a --server ending with the course's path, /c/SLUG).

            Exit status: 0 done, 1 another error, 3 not logged in, 4 wrong credentials, 5 server \
            unreachable or unavailable, 6 throttled, 7 no such course, 8 not a member of the course, \
            9 invite link not valid, 64 a usage error.
            """,
        subcommands: [
            SignUp.self, LogIn.self, LogOut.self, Me.self, List.self, Post.self, Delete.self, Geocode.self, Watch.self, Courses.self,
        ])
}

/// The options every command takes.
struct Connection: ParsableArguments {
    @Option(help: "The server's address (or ONTHEMAP_SERVER).")
    var server: String = ProcessInfo.processInfo.environment["ONTHEMAP_SERVER"] ?? "http://127.0.0.1:8080"

    @Option(help: "The course whose map to use, by its slug (or ONTHEMAP_COURSE); the default course when not given.")
    var course: String?

    @Option(help: "Where the session is kept (default: ~/.config/onthemap/session-HOST-PORT.json).")
    var sessionFile: String?

    @Option(help: "urlsession or asynchttpclient.")
    var transport: Transport = .urlsession

    @Flag(help: "Print JSON (one object per line) instead of text.")
    var json = false

    enum Transport: String, ExpressibleByArgument { case urlsession, asynchttpclient }

    func validate() throws {
        guard baseURL != nil else { throw ValidationError("--server must be an http or https address, not \(server)") }
    }

    var baseURL: URL? {
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else { return nil }
        return url
    }

    func client() -> OnTheMapClient {
        let url = baseURL ?? URL(fileURLWithPath: "/")
        let store = FileSessionStore(url: sessionURL(for: url))
        let client = switch transport {
        case .urlsession: OnTheMapClient(baseURL: url, sessionStore: store)
        case .asynchttpclient: OnTheMapClient(baseURL: url, httpClient: .onTheMapDefault, sessionStore: store)
        }
        let slug = course ?? ProcessInfo.processInfo.environment["ONTHEMAP_COURSE"].flatMap { $0.isEmpty ? nil : $0 }
        return slug.map { client.course($0) } ?? client
    }

    private func sessionURL(for server: URL) -> URL {
        if let sessionFile { return URL(fileURLWithPath: sessionFile) }
        let environment = ProcessInfo.processInfo.environment
        let config = environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSTemporaryDirectory()).appendingPathComponent(".config")
        let name = "session-\(server.host ?? "server")-\(server.port ?? (server.scheme == "https" ? 443 : 80)).json"
        return config.appendingPathComponent("onthemap").appendingPathComponent(name)
    }

    /// Runs a command's calls, printing an `OnTheMapError` as the user's error (JSON with --json)
    /// and exiting with a status that says what kind it was.
    func run(_ work: (OnTheMapClient, Output) async throws -> Void) async throws {
        let output = Output(json: json)
        do {
            try await work(client(), output)
        } catch let error as OnTheMapError {
            output.error(error)
            throw ExitCode(error.exitStatus)
        }
    }
}

extension OnTheMapError {
    /// 1 for most failures; a few a script may want to tell apart.
    var exitStatus: Int32 {
        switch kind {
        case .notLoggedIn: 3
        case .wrongCredentials, .accountDisabled: 4
        case .network, .unavailable: 5
        case .throttled: 6
        case .courseNotFound: 7
        case .notACourseMember: 8
        case .inviteNotValid: 9
        default: 1
        }
    }
}
