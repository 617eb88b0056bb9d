import Core

/// The configuration options that `quartet`'s command-line flags set. Flags beat environment variables,
/// the configuration file and the defaults.
public struct ConfigFlags: Sendable {
    /// `--config FILE` (else `QUARTET_CONFIG`, else built-in defaults only).
    public var configFile: String?
    /// `--data-dir` (`storage.dataDir`).
    public var dataDir: String?
    /// `--migrations-dir` (`storage.migrationsDir`).
    public var migrationsDir: String?
    /// `--log-level` (`logging.level`).
    public var logLevel: String?
    /// `--log-format` (`logging.format`).
    public var logFormat: String?
    /// `--host` (`server.host`).
    public var host: String?
    /// `--port` (`server.port`).
    public var port: Int?

    /// No flags.
    public init() {}

    /// The flags as `section.key` overrides.
    var overrides: [(String, JSON)] {
        var out: [(String, JSON)] = []
        if let dataDir { out.append(("storage.dataDir", .string(dataDir))) }
        if let migrationsDir { out.append(("storage.migrationsDir", .string(migrationsDir))) }
        if let logLevel { out.append(("logging.level", .string(logLevel))) }
        if let logFormat { out.append(("logging.format", .string(logFormat))) }
        if let host { out.append(("server.host", .string(host))) }
        if let port { out.append(("server.port", .number(JSONNumber(port)))) }
        return out
    }

    /// Loads and validates the configuration with these flags on top; throws `ConfigError` naming the key.
    public func load() throws -> QuartetConfiguration {
        try ConfigLoader(filePath: configFile, overrides: overrides).load()
    }
}
