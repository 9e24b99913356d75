import ArgumentParser

/// `onthemap settings`: every setting of `serve` as the README's configuration table (Markdown),
/// which cli-test holds the README to.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Print every setting of serve as a Markdown table: flag, variable, default, meaning.")

    func run() {
        print(ServerSetting.markdownTable)
    }
}
