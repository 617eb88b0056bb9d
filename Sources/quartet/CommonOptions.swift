import ArgumentParser
import Core
import App

/// Flags shared by every command that reads the configuration; flags beat environment, file and defaults.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "Configuration file (JSON). Default: $QUARTET_CONFIG, else built-in defaults.")
    var config: String?

    @Option(name: .long, help: "Data directory (storage.dataDir).")
    var dataDir: String?

    @Option(name: .long, help: "Folder with the NNNN_name.sql migrations (storage.migrationsDir).")
    var migrationsDir: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    @Option(name: .long, help: "Log format: text or json.")
    var logFormat: String?

    /// The flag values as configuration overrides.
    var overrides: [(String, JSON)] {
        var out: [(String, JSON)] = []
        if let dataDir { out.append(("storage.dataDir", .string(dataDir))) }
        if let migrationsDir { out.append(("storage.migrationsDir", .string(migrationsDir))) }
        if let logLevel { out.append(("logging.level", .string(logLevel))) }
        if let logFormat { out.append(("logging.format", .string(logFormat))) }
        return out
    }

    /// Loads the configuration, turning a ConfigError into a clean exit naming the key.
    func load(extra: [(String, JSON)] = []) throws -> QuartetConfiguration {
        do {
            return try ConfigLoader(filePath: config, overrides: overrides + extra).load()
        } catch let error as ConfigError {
            throw ValidationError("invalid configuration: \(error)")
        }
    }
}
