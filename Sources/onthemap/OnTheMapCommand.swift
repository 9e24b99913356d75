import ArgumentParser

/// `onthemap`: the On The Map server and its admin tools.
@main
struct OnTheMapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onthemap",
        abstract: "On The Map: a self-hostable shared map of where students are.",
        discussion: "Every option can also be set with an ONTHEMAP_… environment variable; a flag wins over the variable.",
        subcommands: [ServeCommand.self, UserCommand.self, CourseCommand.self, LTICommand.self, CopyDataCommand.self, BackupCommand.self, RestoreCommand.self, ExportCommand.self, ImportCommand.self, GeocodeCommand.self, SettingsCommand.self],
        defaultSubcommand: nil)
}
