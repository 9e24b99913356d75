import ArgumentParser
import Foundation
import Logging
import OnTheMapModel
import OnTheMapServer
import OnTheMapStore

/// `onthemap user …`: manage accounts directly in the database.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list and remove accounts.",
        subcommands: [Add.self, List.self, Remove.self])

    /// Opens the store for a one-off command, quietly.
    static func withStore<T>(_ options: DatabaseOptions, _ body: (SQLStore) async throws -> T) async throws -> T {
        var logger = Logger(label: "onthemap")
        logger.logLevel = .warning
        let file = try await options.open(logger: logger)
        do {
            let result = try await body(file.store)
            try await file.close()
            return result
        } catch {
            try? await file.close()
            throw error
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account. The password is read from standard input (typed without echo on a terminal).")

        @Option(help: "Email address to log in with.") var email: String
        @Option(help: "First name.") var first: String
        @Option(help: "Last name.") var last: String
        @Flag(help: "Make this account an admin of the map: the web app's admin area (reports, hiding pins, accounts, the audit log) and changing any location.") var admin = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let password = try PasswordInput.read(prompt: "Password for \(email): ")
            let signUp: SignUp
            do {
                signUp = try SignUp(email: email, password: password, firstName: first, lastName: last)
            } catch {
                throw CommandFailure(error.message)
            }
            let account = try await UserCommand.withStore(database) { store in
                do {
                    return try await AccountCreation.add(signUp, isAdmin: admin, to: store)
                } catch let error as APIError {
                    throw CommandFailure(error.message)
                } catch StoreError.emailTaken {
                    throw CommandFailure("an account with email \(signUp.email) already exists.")
                }
            }
            print("Added \(account.email) with key \(account.key)\(account.isAdmin ? " (admin)" : "").")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every account.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let accounts = try await UserCommand.withStore(database) { try await $0.allAccounts() }
            guard !accounts.isEmpty else {
                print("No accounts.")
                return
            }
            print(["KEY", "EMAIL", "NAME", "ADMIN", "CREATED"].joined(separator: "\t"))
            for account in accounts {
                print([account.key, account.email, "\(account.firstName) \(account.lastName)",
                       account.isAdmin ? "yes" : "no", WireTime.formatMillis(account.createdAt)].joined(separator: "\t"))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove an account with its sessions and its location.")

        @Option(help: "Email of the account to remove.") var email: String?
        @Option(help: "Key of the account to remove.") var key: String?
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard (email == nil) != (key == nil) else { throw ValidationError("Give exactly one of --email or --key.") }
        }

        func run() async throws {
            let removed = try await UserCommand.withStore(database) { store -> Account? in
                let found = if let email { try await store.account(email: Validation.normalizedEmail(email)) } else { try await store.account(key: key!) }
                guard let account = found else { return nil }
                return try await store.deleteAccount(key: account.key) ? account : nil
            }
            guard let removed else { throw CommandFailure("no account with \(email.map { "email \($0)" } ?? "key \(key!)").") }
            print("Removed \(removed.email) (key \(removed.key)).")
        }
    }
}
