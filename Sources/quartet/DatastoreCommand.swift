import ArgumentParser
import Logging
import App
import DatastoreAPI
import Storage

/// `quartet datastore ...`: Datastore API administration.
struct DatastoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "datastore", abstract: "Datastore API administration.",
                                                    subcommands: [DatastoreToken.self])
}

/// `quartet datastore token create|revoke`.
struct DatastoreToken: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "token", abstract: "Datastore access tokens.",
                                                    subcommands: [Create.self, Revoke.self])

    /// Loads the configuration, opens (and migrates) the store for `body`, and closes it afterwards.
    /// Only warnings are logged, so that the command's own output stays clean for scripts.
    static func withStorage(_ common: CommonOptions, _ body: (Storage) throws -> Void) throws {
        let config = try common.load()
        LoggingSetup.bootstrap(format: config.logFormat, level: "warning")
        let opened = try StorageBootstrap.open(config, logger: Logger(label: "quartet.datastore"))
        defer { opened.storage.close() }
        try body(opened.storage)
    }

    /// Creates the user if needed and prints a new token (stored only hashed).
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a token for USER and print it.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User name ([A-Za-z0-9._@-], 1 to 64 characters).") var user: String

        func run() throws {
            try DatastoreToken.withStorage(common) { storage in
                print(try DatastoreService.createToken(user: user, storage: storage))
            }
        }
    }

    /// Revokes a token.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke TOKEN.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The token to revoke.") var token: String

        func run() throws {
            try DatastoreToken.withStorage(common) { storage in
                guard try DatastoreService.revokeToken(token, storage: storage) else {
                    throw ValidationError("no live token matches")
                }
                print("revoked")
            }
        }
    }
}
