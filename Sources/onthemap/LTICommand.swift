import ArgumentParser
import Foundation
import OnTheMapModel
import OnTheMapServer
import OnTheMapStore

/// `onthemap lti …`: LTI 1.3 set up from the shell (README, "Launched from a learning platform"):
/// the values a platform asks of the tool, the platforms registered with the values they show,
/// and the tool's signing keys. Every rule is `LTIRegistration`'s.
struct LTICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lti",
        abstract: "Set up LTI 1.3: the values for a learning platform, its registration, the tool's keys.",
        subcommands: [Values.self, Platform.self, Keys.self])

    /// Runs `body` with the registration on the database, its refusals said plainly; with
    /// `secret`, the servers' own (the tool's keys are sealed under it).
    static func withRegistration<T>(
        _ database: DatabaseOptions, secret: SecretOptions? = nil, _ body: (LTIRegistration) async throws -> T
    ) async throws -> T {
        let serverSecret = try secret.map { try $0.existingSecret(for: try database.location()) } ?? ServerSecret.perProcess
        return try await UserCommand.withStore(database) { store in
            do {
                return try await body(LTIRegistration(store: store, secret: serverSecret))
            } catch let refusal as LTIRegistration.Invalid {
                throw CommandFailure(refusal.description)
            }
        }
    }

    struct Values: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print what a learning platform asks of this tool when it is added (paste each into the platform's form).")

        @Option(name: .customLong("public-url"), help: "The origin the servers are reached at, such as https://map.example.org.")
        var publicURL: String

        func validate() throws {
            guard PublicURL(publicURL) != nil else {
                throw ValidationError("--public-url must be an origin such as https://map.example.org; got \"\(publicURL)\".")
            }
        }

        func run() async throws {
            let origin = PublicURL(publicURL)!.origin
            for (name, value) in LTIRegistration.toolValues(origin: origin) { print("\(name):\t\(value)") }
        }
    }

    struct Platform: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register, list and remove learning platforms.", subcommands: [Add.self, List.self, Deployment.self, Remove.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Register a platform with the values it shows for this tool.",
                discussion: "Canvas calls the client id \"Client ID\" (its developer key's number); Moodle \"Client ID\" in the tool's details; Open edX \"LTI 1.3 client ID\".")

            @Option(help: "What people call it, such as \"Canvas at Example University\" (default: the issuer).") var name = ""
            @Option(help: "Its issuer (`iss`), such as https://canvas.instructure.com.") var issuer: String
            @Option(name: .customLong("client-id"), help: "The client id it gave this tool.") var clientID: String
            @Option(name: .customLong("deployment"), help: "A deployment id of the tool on it (repeat for several).") var deployments: [String] = []
            @Option(name: .customLong("authorization-url"), help: "Its OpenID Connect authorization endpoint (\"authentication request URL\").")
            var authorizationURL: String
            @Option(name: .customLong("jwks-url"), help: "Its public keyset URL.") var jwksURL: String
            @Option(name: .customLong("token-url"), help: "Its access token URL (OAuth 2.0 token endpoint).") var tokenURL: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let platform = try await LTICommand.withRegistration(database) { registration in
                    try await registration.add(.init(
                        name: name, issuer: issuer, clientID: clientID, deploymentIDs: deployments, authorizationURL: authorizationURL,
                        jwksURL: jwksURL, tokenURL: tokenURL))
                }
                print("Registered platform \(platform.id): \(platform.name) (\(platform.issuer), client id \(platform.clientID)).")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the registered platforms.")

            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let platforms = try await LTICommand.withRegistration(database) { try await $0.platforms() }
                if platforms.isEmpty { print("No platform is registered: add one with onthemap lti platform add."); return }
                print(["ID", "NAME", "ISSUER", "CLIENT ID", "DEPLOYMENTS"].joined(separator: "\t"))
                for platform in platforms {
                    print(["\(platform.id)", platform.name, platform.issuer, platform.clientID, platform.deploymentIDs.joined(separator: ",")]
                        .joined(separator: "\t"))
                }
            }
        }

        struct Deployment: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a deployment id to a registered platform.")

            @Argument(help: "The platform's id (onthemap lti platform list).") var platform: Int64
            @Argument(help: "The deployment id it shows.") var deployment: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let added = try await LTICommand.withRegistration(database) { try await $0.addDeployment(deployment, toPlatform: platform) }
                print(added ? "Added deployment \(deployment) to platform \(platform)." : "Platform \(platform) has deployment \(deployment) already.")
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove a platform: its launches stop working; its courses and their pins stay.")

            @Argument(help: "The platform's id (onthemap lti platform list).") var platform: Int64
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                guard try await LTICommand.withRegistration(database, { try await $0.remove(platform: platform) }) else {
                    throw CommandFailure("no platform has the id \(platform).")
                }
                print("Removed platform \(platform).")
            }
        }
    }

    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the tool's signing keys, or make a new one sign (the old one stays published for a week).",
            discussion: "The keys are sealed under the servers' secret: give the same --secret-file as the servers.")

        @Flag(help: "Make a new key the one that signs.") var rotate = false
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var secret: SecretOptions

        func run() async throws {
            let keys = try await LTICommand.withRegistration(database, secret: secret) { registration in
                if rotate { print("The new key \(try await registration.rotateToolKey()) signs from now on.") }
                return try await registration.toolKeys()
            }
            print(["KEY ID", "MADE", "STATE"].joined(separator: "\t"))
            for key in keys { print([key.kid, WireTime.formatMillis(key.createdAt), key.signs ? "signs" : "retired, still published"].joined(separator: "\t")) }
        }
    }
}
