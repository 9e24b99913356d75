import ArgumentParser
import Foundation
import OnTheMapServer

/// `serve --oidc-provider`, once per OpenID Connect provider students may sign in with (README,
/// "Sign in with a school account").
struct SignInOptions: ParsableArguments {
    @Option(name: .customLong("oidc-provider"), parsing: .singleValue, help: ArgumentHelp(
        """
        An OpenID Connect provider to sign in with, repeatable: id=ID,name=NAME,issuer=URL,client-id=ID,client-secret-file=PATH \
        (or client-secret=SECRET), and trust-email for a provider that vouches for every email it gives. Needs --public-url; \
        register PUBLIC_URL/v1/oidc/ID/callback with the provider (env ONTHEMAP_OIDC_PROVIDERS, providers separated by ";").
        """,
        valueName: "settings"))
    var providers: [String] = []

    /// The providers from the flags, else from `ONTHEMAP_OIDC_PROVIDERS`.
    func signInProviders() throws -> [SignInProvider] {
        let (texts, source): ([String], String) = if !providers.isEmpty {
            (providers, "--oidc-provider")
        } else if let variable = ProcessInfo.processInfo.environment["ONTHEMAP_OIDC_PROVIDERS"] {
            (variable.split(whereSeparator: { $0 == ";" || $0.isNewline }).map(String.init), "ONTHEMAP_OIDC_PROVIDERS")
        } else {
            ([], "")
        }
        var parsed: [SignInProvider] = []
        for text in texts where !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                let provider = try SignInProvider.parse(text) { path in try String(contentsOfFile: path, encoding: .utf8) }
                guard !parsed.contains(where: { $0.id == provider.id }) else { throw ValidationError("\(source): two providers are called \(provider.id).") }
                parsed.append(provider)
            } catch let invalid as SignInProvider.Invalid {
                throw ValidationError("\(source): \(invalid.description).")
            }
        }
        return parsed
    }
}
