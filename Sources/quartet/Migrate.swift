import ArgumentParser
import Logging
import App

/// `quartet migrate`: applies pending migrations and exits.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    @OptionGroup var common: CommonOptions

    func run() throws {
        let config = try common.load()
        LoggingSetup.bootstrap(format: config.logFormat, level: config.logLevel)
        let applied = try DatabaseMaintenance.migrate(config, logger: Logger(label: "quartet.migrate"))
        if applied.isEmpty {
            print("database is up to date")
        } else {
            for m in applied { print("applied \(m.version) \(m.name)") }
        }
    }
}
