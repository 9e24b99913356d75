import ArgumentParser
import Foundation
import OnTheMapServer

/// `serve --oidc-provider`, once per OpenID Connect provider students may sign in with (README,
/// "Sign in with a school account").
struct SignInOptions: ParsableArguments {
    @Option(name: .customLong(ServerSetting.oidcProviders.name), parsing: .singleValue, help: ServerSetting.oidcProviders.help)
    var providers: [String] = []

    /// The providers from the flags, else from `ONTHEMAP_OIDC_PROVIDERS`.
    func signInProviders() throws -> [SignInProvider] {
        let setting = ServerSetting.oidcProviders
        let (texts, source): ([String], String) = if !providers.isEmpty {
            (providers, setting.flag)
        } else if let (variable, source) = setting.raw(nil) {
            (variable.split(whereSeparator: { $0 == ";" || $0.isNewline }).map(String.init), source)
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
