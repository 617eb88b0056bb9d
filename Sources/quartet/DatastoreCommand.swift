import ArgumentParser
import Logging
import App

/// `quartet datastore ...`: Datastore API administration.
struct DatastoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "datastore", abstract: "Datastore API administration.",
                                                    subcommands: [DatastoreToken.self])
}

/// `quartet datastore token create|revoke`.
struct DatastoreToken: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "token", abstract: "Datastore access tokens.",
                                                    subcommands: [Create.self, Revoke.self])

    /// Loads the configuration and sets up logging for a token command. Only warnings are logged, so that
    /// the command's own output stays clean for scripts.
    static func prepare(_ common: CommonOptions) throws -> (QuartetConfiguration, Logger) {
        let config = try common.load()
        LoggingSetup.bootstrap(format: config.logFormat, level: "warning")
        return (config, Logger(label: "quartet.datastore"))
    }

    /// Creates the user if needed and prints a new token (stored only hashed).
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a token for USER and print it.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User name ([A-Za-z0-9._@-], 1 to 64 characters).") var user: String

        func run() throws {
            let (config, logger) = try DatastoreToken.prepare(common)
            print(try DatastoreAdmin.createToken(user: user, config: config, logger: logger))
        }
    }

    /// Revokes a token.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke TOKEN.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The token to revoke.") var token: String

        func run() throws {
            let (config, logger) = try DatastoreToken.prepare(common)
            guard try DatastoreAdmin.revokeToken(token, config: config, logger: logger) else {
                throw ValidationError("no live token matches")
            }
            print("revoked")
        }
    }
}
