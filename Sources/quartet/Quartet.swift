import ArgumentParser
import App

/// `quartet`: the daemon and its operator commands.
@main
struct Quartet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quartet",
        abstract: "One self-hosted daemon speaking the Parse, CouchDB, Dropbox Datastore and Backbeam APIs.",
        subcommands: [Serve.self, Migrate.self, BackupCommand.self, CheckConfig.self, Version.self, DatastoreCommand.self,
                      BackbeamCommand.self],
        defaultSubcommand: Serve.self
    )
}
