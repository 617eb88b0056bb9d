import Core

/// The `datastore` section of the configuration (camelCase keys, §10 of the specification).
public struct DatastoreConfig: Sendable, Equatable {
    /// Serve `/1/datastores/*` and `/r5/datastores/*`.
    public var enabled = true
    /// Await time-out in seconds, clamped to 1–50 (the Python client gives up reading after 60 s).
    public var awaitTimeoutSeconds = 30
    /// Concurrent waiting awaits per user; one more gets 503.
    public var maxAwaitsPerUser = 64
    /// Tolerance above the nominal size limits, in percent.
    public var sizeHeadroomPercent = 10
    /// Request body limit (a legal 2 MiB delta grows several times once JSON-escaped and form-encoded).
    public var maxBodyBytes = 32 << 20
    /// Request line / query string limit.
    public var maxUrlBytes = 64 << 10
    /// Batch cap of one get_deltas/await answer: deltas.
    public var maxDeltasPerResponse = 10_000
    /// Batch cap of one get_deltas/await answer: bytes of serialised changes.
    public var maxDeltaBytesPerResponse = 16 << 20
    /// Largest JSON nesting accepted in a parameter (legal values never nest deeper than 6).
    public var maxJsonDepth = 32
    /// Header section limit for the API's mount (nil: the server's).
    public var maxHeaderBytes: Int?
    /// Header count limit for the API's mount (nil: the server's).
    public var maxHeaderCount: Int?
    /// Development tokens: token → user name, in configuration order.
    public var staticTokens: [(token: String, user: String)] = []
    /// Team name → member user names (enables the `team` principal).
    public var teams: [String: [String]] = [:]

    /// Defaults.
    public init() {}

    /// Reads and validates the section; throws `ConfigError` naming `datastore.<key>`.
    public init(_ values: JSONObject) throws {
        let section = ConfigSection(values, path: "datastore")
        try section.rejectUnknownKeys(Self.knownKeys)
        enabled = try section.bool("enabled", true)
        // Every integer is capped at Int32.max: sizes and counts beyond it are mistakes, not settings.
        let cap = Int(Int32.max)
        // Clamped rather than refused: the spec defines the effective range 1–50.
        awaitTimeoutSeconds = min(50, max(1, try section.int("awaitTimeoutSeconds", 30, min: 0, max: cap)))
        maxAwaitsPerUser = try section.int("maxAwaitsPerUser", 64, min: 1, max: cap)
        sizeHeadroomPercent = try section.int("sizeHeadroomPercent", 10, min: 0, max: 1000)
        maxBodyBytes = try section.int("maxBodyBytes", 32 << 20, min: 1024, max: cap)
        maxUrlBytes = try section.int("maxUrlBytes", 64 << 10, min: 256, max: cap)
        maxDeltasPerResponse = try section.int("maxDeltasPerResponse", 10_000, min: 1, max: cap)
        maxDeltaBytesPerResponse = try section.int("maxDeltaBytesPerResponse", 16 << 20, min: 1, max: cap)
        maxJsonDepth = try section.int("maxJsonDepth", 32, min: 8, max: 512)
        staticTokens = try Self.staticTokens(section)
        try readLimits(section)
        teams = try Self.teams(section)
    }

    static let knownKeys: Set<String> = [
        "enabled", "awaitTimeoutSeconds", "maxAwaitsPerUser", "sizeHeadroomPercent", "maxBodyBytes", "maxUrlBytes",
        "maxDeltasPerResponse", "maxDeltaBytesPerResponse", "maxJsonDepth", "staticTokens", "teams", "limits",
    ]

    /// The platform-wide per-API `limits` object (`maxRequestTargetBytes`, `maxHeaderBytes`, `maxHeaderCount`,
    /// `maxBodyBytes`); its values win over the section's own `maxUrlBytes` / `maxBodyBytes`.
    private mutating func readLimits(_ section: ConfigSection) throws {
        guard section["limits"] != nil else { return }
        let limits = try section.nested("limits")
        try limits.rejectUnknownKeys(["maxRequestTargetBytes", "maxHeaderBytes", "maxHeaderCount", "maxBodyBytes"])
        func value(_ key: String, min: Int) throws -> Int? {
            guard limits[key] != nil else { return nil }
            return try limits.int(key, 0, min: min, max: Int(Int32.max))
        }
        if let v = try value("maxRequestTargetBytes", min: 256) { maxUrlBytes = v }
        if let v = try value("maxBodyBytes", min: 1024) { maxBodyBytes = v }
        maxHeaderBytes = try value("maxHeaderBytes", min: 1024)
        maxHeaderCount = try value("maxHeaderCount", min: 8)
    }

    private static func staticTokens(_ section: ConfigSection) throws -> [(token: String, user: String)] {
        // The environment form carries the object as JSON text, which `object` accepts too.
        guard let object = try section.object("staticTokens", reason: "must be an object of token to user name") else {
            return []
        }
        var result: [(token: String, user: String)] = []
        for (token, userJSON) in object {
            guard Identifiers.isClientAcceptableToken(token) else {
                throw ConfigError(key: "datastore.staticTokens",
                                  reason: "a token does not match the client token pattern [-_~/A-Za-z0-9.+]+=*")
            }
            guard case .string(let user) = userJSON, Identifiers.isValidUserName(user) else {
                throw ConfigError(key: "datastore.staticTokens", reason: "user names must match [A-Za-z0-9._@-]{1,64}")
            }
            result.append((token, user))
        }
        return result
    }

    private static func teams(_ section: ConfigSection) throws -> [String: [String]] {
        guard let object = try section.object("teams", reason: "must be an object of team to user names") else {
            return [:]
        }
        var result: [String: [String]] = [:]
        for (team, members) in object {
            guard case .array(let list) = members else {
                throw ConfigError(key: "datastore.teams", reason: "team \(team) must list user names")
            }
            result[team] = try list.map { member in
                guard case .string(let name) = member else {
                    throw ConfigError(key: "datastore.teams", reason: "team \(team) must list user names")
                }
                return name
            }
        }
        return result
    }

    /// Field-by-field equality (the static token list compares in order).
    public static func == (a: DatastoreConfig, b: DatastoreConfig) -> Bool {
        a.enabled == b.enabled && a.awaitTimeoutSeconds == b.awaitTimeoutSeconds && a.maxAwaitsPerUser == b.maxAwaitsPerUser
            && a.sizeHeadroomPercent == b.sizeHeadroomPercent && a.maxBodyBytes == b.maxBodyBytes
            && a.maxUrlBytes == b.maxUrlBytes && a.maxDeltasPerResponse == b.maxDeltasPerResponse
            && a.maxDeltaBytesPerResponse == b.maxDeltaBytesPerResponse && a.maxJsonDepth == b.maxJsonDepth
            && a.staticTokens.elementsEqual(b.staticTokens) { $0.token == $1.token && $0.user == $1.user }
            && a.teams == b.teams && a.maxHeaderBytes == b.maxHeaderBytes && a.maxHeaderCount == b.maxHeaderCount
    }
}
