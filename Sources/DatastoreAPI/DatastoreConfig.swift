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
    public init(_ section: JSONObject) throws {
        for key in section.keys where !Self.knownKeys.contains(key) {
            throw ConfigError(key: "datastore.\(key)", reason: "unknown key")
        }
        if let v = section["enabled"] {
            // The environment form may spell booleans as text or 1/0.
            switch v {
            case .bool(let b): enabled = b
            case .string("true"), .string("yes"), .string("1"): enabled = true
            case .string("false"), .string("no"), .string("0"): enabled = false
            case .number(let n) where n.text == "1" || n.text == "0": enabled = n.text == "1"
            default: throw ConfigError(key: "datastore.enabled", reason: "must be a boolean")
            }
        }
        // Clamped rather than refused: the spec defines the effective range 1–50.
        awaitTimeoutSeconds = min(50, max(1, try Self.int(section, "awaitTimeoutSeconds", default: 30, min: 0)))
        maxAwaitsPerUser = try Self.int(section, "maxAwaitsPerUser", default: 64, min: 1)
        sizeHeadroomPercent = try Self.int(section, "sizeHeadroomPercent", default: 10, min: 0, max: 1000)
        maxBodyBytes = try Self.int(section, "maxBodyBytes", default: 32 << 20, min: 1024)
        maxUrlBytes = try Self.int(section, "maxUrlBytes", default: 64 << 10, min: 256)
        maxDeltasPerResponse = try Self.int(section, "maxDeltasPerResponse", default: 10_000, min: 1)
        maxDeltaBytesPerResponse = try Self.int(section, "maxDeltaBytesPerResponse", default: 16 << 20, min: 1)
        maxJsonDepth = try Self.int(section, "maxJsonDepth", default: 32, min: 8, max: 512)
        staticTokens = try Self.staticTokens(section["staticTokens"])
        try readLimits(section["limits"])
        teams = try Self.teams(section["teams"])
    }

    static let knownKeys: Set<String> = [
        "enabled", "awaitTimeoutSeconds", "maxAwaitsPerUser", "sizeHeadroomPercent", "maxBodyBytes", "maxUrlBytes",
        "maxDeltasPerResponse", "maxDeltaBytesPerResponse", "maxJsonDepth", "staticTokens", "teams", "limits",
    ]

    /// The platform-wide per-API `limits` object (`maxRequestTargetBytes`, `maxHeaderBytes`, `maxHeaderCount`,
    /// `maxBodyBytes`); its values win over the section's own `maxUrlBytes` / `maxBodyBytes`.
    private mutating func readLimits(_ json: JSON?) throws {
        guard let json else { return }
        guard case .object(let limits) = json else {
            throw ConfigError(key: "datastore.limits", reason: "must be an object")
        }
        for key in limits.keys where !["maxRequestTargetBytes", "maxHeaderBytes", "maxHeaderCount", "maxBodyBytes"].contains(key) {
            throw ConfigError(key: "datastore.limits.\(key)", reason: "unknown key")
        }
        func value(_ key: String, min: Int) throws -> Int? {
            guard limits[key] != nil else { return nil }
            return try Self.int(limits, key, default: 0, min: min, name: "limits.\(key)")
        }
        if let v = try value("maxRequestTargetBytes", min: 256) { maxUrlBytes = v }
        if let v = try value("maxBodyBytes", min: 1024) { maxBodyBytes = v }
        maxHeaderBytes = try value("maxHeaderBytes", min: 1024)
        maxHeaderCount = try value("maxHeaderCount", min: 8)
    }

    private static func int(_ section: JSONObject, _ key: String, default value: Int, min: Int,
                            max: Int = Int(Int32.max), name: String? = nil) throws -> Int {
        guard let json = section[key] else { return value }
        let number: Int64?
        switch json {
        case .number(let n): number = n.int64Value
        case .string(let s): number = Int64(s)   // environment overrides arrive as strings
        default: number = nil
        }
        guard let n = number, n >= Int64(min), n <= Int64(max), let result = Int(exactly: n) else {
            throw ConfigError(key: "datastore.\(name ?? key)", reason: "must be an integer between \(min) and \(max)")
        }
        return result
    }

    private static func staticTokens(_ json: JSON?) throws -> [(token: String, user: String)] {
        guard let json else { return [] }
        var parsed: JSONObject?
        if case .object(let o) = json { parsed = o }
        // The environment form carries the object as JSON text.
        if case .string(let text) = json, case .object(let o)? = try? JSONParser.parse(text) { parsed = o }
        guard let object = parsed else {
            throw ConfigError(key: "datastore.staticTokens", reason: "must be an object of token to user name")
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

    private static func teams(_ json: JSON?) throws -> [String: [String]] {
        guard let json else { return [:] }
        var object: JSONObject?
        if case .object(let o) = json { object = o }
        if case .string(let text) = json, case .object(let o)? = try? JSONParser.parse(text) { object = o }
        guard let object else { throw ConfigError(key: "datastore.teams", reason: "must be an object of team to user names") }
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
