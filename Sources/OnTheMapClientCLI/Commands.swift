import ArgumentParser
import Foundation
import OnTheMapKit

struct SignUp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "signup", abstract: "Make an account and log in to it.")
    @OptionGroup var connection: Connection
    @Option var email: String
    @Option var firstName: String
    @Option var lastName: String
    @Flag(help: "Read the password from standard input.") var passwordStdin = false

    func run() async throws {
        try await connection.run { client, output in
            let password = try Password.read(fromStandardInput: passwordStdin)
            let session = try await client.signUp(email: email, password: password, firstName: firstName, lastName: lastName)
            output.session(session, email: email)
        }
    }
}

struct LogIn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Log in with an email and password.")
    @OptionGroup var connection: Connection
    @Option var email: String
    @Flag(help: "Read the password from standard input.") var passwordStdin = false

    func run() async throws {
        try await connection.run { client, output in
            let password = try Password.read(fromStandardInput: passwordStdin)
            output.session(try await client.logIn(email: email, password: password), email: email)
        }
    }
}

struct LogOut: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "End the session kept for this server.")
    @OptionGroup var connection: Connection

    func run() async throws {
        try await connection.run { client, output in
            try await client.logOut()
            output.line("Logged out.", json: ["loggedOut": true])
        }
    }
}

struct Me: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "me", abstract: "Who is logged in, and their pin.")
    @OptionGroup var connection: Connection

    func run() async throws {
        try await connection.run { client, output in output.me(try await client.me()) }
    }
}

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The latest pins, or those a query picks.")
    @OptionGroup var connection: Connection
    @Option(help: "How many (the server's maximum is 1000 unless set otherwise).") var limit = 100
    @Option(help: "Skip this many first.") var skip: Int?
    @Option(help: "Sort by a field (updatedAt, lastName, …); a leading - sorts newest or last first.") var order = "-updatedAt"
    @Option(help: "Only pins whose field is this value: lastName=Lovelace (repeatable).") var `where`: [String] = []
    @Flag(help: "Print the number of matches too.") var count = false

    func run() async throws {
        var query = LocationQuery().limit(limit)
        if let skip { query = query.skip(skip) }
        for key in order.split(separator: ",") {
            let descending = key.hasPrefix("-")
            guard let field = LocationQuery.Field(rawValue: String(key.drop { $0 == "-" })) else {
                throw ValidationError("--order names \(key), which is not a field: \(LocationQuery.Field.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            query = query.ordered(by: field, descending ? .descending : .ascending)
        }
        for condition in `where` {
            let parts = condition.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let field = LocationQuery.Field(rawValue: parts[0]) else {
                throw ValidationError("--where takes FIELD=VALUE with a field of a pin, not \(condition)")
            }
            let value: LocationQuery.Value = (field == .latitude || field == .longitude) ? Double(parts[1]).map { .number($0) } ?? .text(parts[1]) : .text(parts[1])
            query = query.where(field, .equals(value))
        }
        if count { query = query.counted() }
        try await connection.run { client, output in output.page(try await client.locations(query)) }
    }
}

struct Post: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Put yourself on the map (again: it moves your one pin).",
        discussion: "Without --latitude and --longitude the server's geocoder finds the place and its best match is posted.")
    @OptionGroup var connection: Connection
    @Option(help: "Where you are, as you would say it: \"Lima, Peru\".") var place: String
    @Option(help: "Your link.") var link: String
    @Option(parsing: .unconditional, help: "With --longitude: where to put the pin instead of geocoding (negative numbers welcome).") var latitude: Double?
    @Option(parsing: .unconditional) var longitude: Double?

    func validate() throws {
        guard (latitude == nil) == (longitude == nil) else { throw ValidationError("give both --latitude and --longitude, or neither") }
    }

    func run() async throws {
        try await connection.run { client, output in
            var location = NewLocation(mapString: place, mediaURL: link, latitude: latitude ?? 0, longitude: longitude ?? 0)
            if latitude == nil {
                guard let found = try await client.geocode(place, limit: 1).places.first else {
                    throw OnTheMapError(kind: .invalid, message: "The geocoder found no place for \"\(place)\"; give --latitude and --longitude.", parameter: "place")
                }
                location = NewLocation(place: found, typed: place, mediaURL: link)
            }
            let posted = try await client.post(location)
            output.posted(posted, location)
        }
    }
}

struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a pin: yours unless you name another.")
    @OptionGroup var connection: Connection
    @Argument(help: "The pin's objectId.") var objectId: String?

    func run() async throws {
        try await connection.run { client, output in
            var id = objectId
            if id == nil { id = try await client.me().location?.objectId }
            guard let id else { throw OnTheMapError(kind: .notFound, message: "You have no pin to delete.") }
            try await client.delete(id)
            output.line("Deleted \(id).", json: ["deleted": id])
        }
    }
}

struct Geocode: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "geocode", abstract: "Where the server's geocoder puts some text.")
    @OptionGroup var connection: Connection
    @Argument var text: String
    @Option var limit = 5

    func run() async throws {
        try await connection.run { client, output in output.geocoded(try await client.geocode(text, limit: limit)) }
    }
}

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print every change to the map as it happens (until interrupted).")
    @OptionGroup var connection: Connection
    @Option(help: "Resume after this event id (a ready line prints it).") var after: String?
    @Option(help: "Stop after this many changes.") var count: Int?

    func run() async throws {
        try await connection.run { client, output in
            var changes = 0
            for try await update in client.liveUpdates(after: after) {
                output.update(update)
                if case .ready = update { continue }
                changes += 1
                if let count, changes >= count { return }
            }
        }
    }
}
