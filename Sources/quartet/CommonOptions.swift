import ArgumentParser
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

    /// The flag values, for App to apply on top of the other configuration sources.
    var flags: ConfigFlags {
        var flags = ConfigFlags()
        flags.configFile = config
        flags.dataDir = dataDir
        flags.migrationsDir = migrationsDir
        flags.logLevel = logLevel
        flags.logFormat = logFormat
        return flags
    }

    /// Loads the configuration (with `adjust` setting command-specific flags), turning an invalid
    /// configuration into a clean exit naming the key.
    func load(_ adjust: (inout ConfigFlags) -> Void = { _ in }) throws -> QuartetConfiguration {
        var flags = self.flags
        adjust(&flags)
        do {
            return try flags.load()
        } catch {
            // Loading fails only with a ConfigError, whose text is `key: reason`.
            throw ValidationError("invalid configuration: \(error)")
        }
    }
}
