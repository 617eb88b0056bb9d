import Foundation
import Core

/// Builds the effective configuration: built-in defaults < configuration file < `QUARTET_*` environment
/// variables < command-line flags. Any invalid value stops start-up with a `ConfigError` naming the key.
public struct ConfigLoader: Sendable {
    /// Path of the configuration file, if any (`--config`, else `QUARTET_CONFIG`).
    public var filePath: String?
    /// The process environment (injected for tests).
    public var environment: [String: String]
    /// Values from command-line flags, as `section.key` -> value.
    public var overrides: [(String, JSON)]

    /// Creates a loader.
    public init(filePath: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                overrides: [(String, JSON)] = []) {
        self.filePath = filePath ?? environment["QUARTET_CONFIG"]
        self.environment = environment
        self.overrides = overrides
    }

    /// Loads, merges and validates.
    public func load() throws -> QuartetConfiguration {
        var tree = ConfigSchema.defaults
        if let filePath {
            try merge(file: try Self.readFile(filePath), into: &tree)
        }
        try mergeEnvironment(into: &tree)
        for (path, value) in overrides {
            let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw ConfigError(key: path, reason: "unknown option") }
            set(value, section: parts[0], key: parts[1], in: &tree)
        }
        return try QuartetConfiguration(tree: tree)
    }

    /// Largest configuration file read, the JSON parser's default input limit.
    static let maxFileBytes = JSONParseOptions().maxBytes

    /// Reads and parses a configuration file (strict JSON, duplicate keys rejected).
    static func readFile(_ path: String) throws -> JSONObject {
        // Read at most one byte past the limit: a path such as /dev/zero or a huge file must be refused,
        // not read into memory whole.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConfigError(key: "config", reason: "cannot read \(path)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxFileBytes + 1) ?? Data()
        } catch {
            throw ConfigError(key: "config", reason: "cannot read \(path)")
        }
        guard data.count <= maxFileBytes else {
            throw ConfigError(key: "config", reason: "\(path) is larger than \(maxFileBytes) bytes")
        }
        let parsed: JSON
        do {
            parsed = try JSONParser.parse([UInt8](data))
        } catch {
            throw ConfigError(key: "config", reason: "\(path) is not valid JSON (\(error))")
        }
        guard let root = parsed.objectValue else {
            throw ConfigError(key: "config", reason: "\(path) must hold a JSON object")
        }
        return root
    }

    /// File values replace defaults key by key. Unknown platform keys are errors (typos must not pass
    /// silently); API sections are passed through for their API to validate.
    func merge(file: JSONObject, into tree: inout JSONObject) throws {
        for (section, value) in file {
            if section.hasPrefix("//") || section == "$comment" { continue }
            guard let object = value.objectValue else {
                throw ConfigError(key: section, reason: "must be an object")
            }
            let isPlatform = ConfigSchema.platform.contains { $0.section == section }
            for (key, v) in object {
                if isPlatform, ConfigSchema.option(section, key) == nil {
                    throw ConfigError(key: "\(section).\(key)", reason: "unknown option")
                }
                set(v, section: section, key: key, in: &tree)
            }
        }
    }

    /// `QUARTET_<SECTION>_<UPPER_SNAKE_KEY>`; values typed by the option's kind. Variables of API keys the
    /// schema does not list are read as JSON when they parse as a JSON number, boolean, array or object,
    /// and as text otherwise.
    func mergeEnvironment(into tree: inout JSONObject) throws {
        let sections = Set(ConfigSchema.platform.map(\.section)).union(["parse", "datastore", "couch", "backbeam"])
        for (name, text) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("QUARTET_") {
            let rest = name.dropFirst("QUARTET_".count)
            guard let underscore = rest.firstIndex(of: "_") else { continue }
            let section = rest[..<underscore].lowercased()
            guard sections.contains(section) else { continue }
            let key = ConfigOption.camel(fromUpperSnake: String(rest[rest.index(after: underscore)...]))
            if let option = ConfigSchema.option(section, key) {
                guard let value = option.value(fromEnvironment: text) else {
                    throw ConfigError(key: option.path, reason: "\(name)=\(text) \(option.problem(with: .string(text)) ?? "is invalid")")
                }
                set(value, section: section, key: key, in: &tree)
            } else if ConfigSchema.platform.contains(where: { $0.section == section }) {
                throw ConfigError(key: "\(section).\(key)", reason: "unknown option (from \(name))")
            } else {
                let parsed = try? JSONParser.parse(text)
                switch parsed {
                case .some(.number), .some(.bool), .some(.array), .some(.object): set(parsed ?? .null, section: section, key: key, in: &tree)
                default: set(.string(text), section: section, key: key, in: &tree)
                }
            }
        }
    }

    func set(_ value: JSON, section: String, key: String, in tree: inout JSONObject) {
        var object = tree[section]?.objectValue ?? JSONObject()
        object[key] = value
        tree[section] = .object(object)
    }
}
