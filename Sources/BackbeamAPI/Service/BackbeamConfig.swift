import Core

/// The `backbeam` section of the configuration (§10; camelCase keys, `QUARTET_BACKBEAM_*` in the
/// environment). Invalid values stop start-up with a `ConfigError` naming the key.
public struct BackbeamConfig: Sendable {
    /// Serve the Backbeam routes.
    public var enabled = true
    /// Projects declared in the configuration, by name.
    public var projects: [String: DeclaredProject] = [:]
    /// Routing fallback when neither the path prefix nor the Host names a project (§1.4).
    public var defaultProject: String?
    /// The environment of the fallback.
    public var defaultEnv: BackbeamEnvironment?
    /// Read the project from `X-Forwarded-Host` instead of `Host` (behind a trusted proxy only).
    public var trustForwardedHost = false
    /// Accepted clock difference of signed requests (§3.4): 300 s.
    public var signatureWindowSeconds = 300
    /// Largest page of a query (§5.1): 1000.
    public var maxLimit = 1000
    /// Largest body without a file part (§2.5): 8 MiB.
    public var maxBodyBytes = 8 << 20
    /// Longest request line (§2.5): 16 KiB.
    public var maxRequestTargetBytes = 16 << 10
    /// Largest header section (§2.5): 16 KiB.
    public var maxHeaderBytes = 16 << 10
    /// Most parameters in one request (§2.5): 2,000.
    public var maxParameters = 2_000
    /// Largest single parameter value (§2.5): 1 MiB.
    public var maxValueBytes = 1 << 20
    /// Entities per environment and fields per entity (§4.3): 256 each.
    public var modelLimits = ModelLimits()
    /// Answer JSONP when a `callback` is sent (§2.3.3).
    public var jsonp = true
    /// Most nonces remembered per environment (§3.4 step 8); when full, signed requests get 503.
    public var nonceCacheCapacity = 2_000_000
    /// Query shapes whose compiled statement texts are kept (`QueryPlanCache`); 0 compiles every query.
    public var queryPlanCacheSize = BackbeamConfig.defaultQueryPlanCacheSize
    /// 256 shapes: an application sends a few dozen distinct queries; each entry holds two statement texts
    /// of a few hundred bytes.
    public static let defaultQueryPlanCacheSize = 256
    /// List queries (statement and values) whose exact totals each read connection keeps until the database
    /// changes (`CountCache`); 0 counts every time.
    public var countCacheSize = BackbeamConfig.defaultCountCacheSize
    /// 4,096 queries per read connection: the distinct filter values of an application's common lists; an
    /// entry is its count statement's text (shared with the compiled query), its bound values and its
    /// answer, a few hundred bytes (about 1 MB per connection when full).
    public static let defaultCountCacheSize = 4096
    /// bcrypt cost of passwords (§5.4.1).
    public var bcryptCost = 10
    /// Age after which sessions stop working; 0 = never (§3.7).
    public var sessionMaxAgeDays = 0
    /// Largest upload body (§2.5): 50 MiB.
    public var maxUploadBytes = 50 << 20
    /// Image resizing of downloads (§5.3.5).
    public var images = ImageSettings()
    /// The externally visible base URL of the daemon, for the links in mails (§8); without it mails carry
    /// the code only.
    public var publicUrl: String?
    /// Social provider settings for every project (`backbeam.social.<provider>`, §5.4.6).
    public var social: [SocialProvider: ProviderSettings] = [:]
    /// Seconds a social provider may take to answer (§5.4.6): 10.
    public var socialTimeoutSeconds = 10
    /// The SMTP relay of mails; nil: mails are logged and kept in the outbox only (§8).
    public var smtp: SMTPSettings?

    /// The defaults.
    public init() {}

    /// Project names: 1–50 characters, DNS-label safe (§1.3).
    public static func isValidProjectName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 1, bytes.count <= 50 else { return false }
        let inner: (UInt8) -> Bool = { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        guard bytes.allSatisfy(inner), let first = bytes.first, let last = bytes.last else { return false }
        return first != 0x2D && last != 0x2D
    }

    /// Declared keys: 1–128 printable ASCII characters without spaces (§3.1).
    public static func isValidKey(_ key: String) -> Bool {
        let bytes = key.utf8
        return !bytes.isEmpty && bytes.count <= 128 && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    static let knownKeys: Set<String> = [
        "enabled", "projects", "defaultProject", "defaultEnv", "trustForwardedHost", "signatureWindowSeconds",
        "maxLimit", "maxBodyBytes", "maxRequestTargetBytes", "maxHeaderBytes", "maxParameters", "maxValueBytes",
        "maxEntities", "maxFieldsPerEntity", "jsonp", "nonceCacheCapacity", "queryPlanCacheSize", "countCacheSize", "bcryptCost", "sessionMaxAgeDays",
        "maxUploadBytes", "images",
        "publicUrl", "social", "socialTimeoutSeconds", "smtp",
    ]

    /// Reads and validates the section.
    public init(_ values: JSONObject) throws {
        let section = ConfigSection(values, path: "backbeam")
        try section.rejectUnknownKeys(Self.knownKeys)
        let cap = Int(Int32.max)
        enabled = try section.bool("enabled", true)
        trustForwardedHost = try section.bool("trustForwardedHost", false)
        signatureWindowSeconds = try section.int("signatureWindowSeconds", 300, min: 1, max: 86_400)
        maxLimit = try section.int("maxLimit", 1000, min: 1, max: 1_000_000)
        maxBodyBytes = try section.int("maxBodyBytes", 8 << 20, min: 1024, max: cap)
        maxRequestTargetBytes = try section.int("maxRequestTargetBytes", 16 << 10, min: 256, max: cap)
        maxHeaderBytes = try section.int("maxHeaderBytes", 16 << 10, min: 1024, max: cap)
        maxParameters = try section.int("maxParameters", 2_000, min: 16, max: cap)
        maxValueBytes = try section.int("maxValueBytes", 1 << 20, min: 1024, max: cap)
        modelLimits = ModelLimits(maxEntities: try section.int("maxEntities", 256, min: 1, max: cap),
                                  maxFieldsPerEntity: try section.int("maxFieldsPerEntity", 256, min: 1, max: cap))
        jsonp = try section.bool("jsonp", true)
        nonceCacheCapacity = try section.int("nonceCacheCapacity", 2_000_000, min: 1, max: cap)
        queryPlanCacheSize = try section.int("queryPlanCacheSize", Self.defaultQueryPlanCacheSize, min: 0, max: 1_000_000)
        countCacheSize = try section.int("countCacheSize", Self.defaultCountCacheSize, min: 0, max: 1_000_000)
        bcryptCost = try section.int("bcryptCost", 10, min: 4, max: 31)
        sessionMaxAgeDays = try section.int("sessionMaxAgeDays", 0, min: 0, max: 100_000)
        maxUploadBytes = try section.int("maxUploadBytes", 50 << 20, min: 1024, max: cap)
        images = try ImageSettings(try section.nested("images"))
        socialTimeoutSeconds = try section.int("socialTimeoutSeconds", 10, min: 1, max: 300)
        if let url = try section.string("publicUrl") {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw section.fail("publicUrl", "must be an http:// or https:// URL")
            }
            publicUrl = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        if section["social"] != nil { social = try ProviderSettings.parse(try section.nested("social")) }
        if section["smtp"] != nil { smtp = try SMTPSettings.parse(try section.nested("smtp")) }
        if let name = try section.string("defaultProject") {
            guard Self.isValidProjectName(name) else { throw section.fail("defaultProject", "is not a valid project name") }
            defaultProject = name
        }
        if let env = try section.string("defaultEnv") {
            guard let parsed = BackbeamEnvironment(rawValue: env) else { throw section.fail("defaultEnv", "must be dev or pro") }
            defaultEnv = parsed
        }
        if (defaultProject == nil) != (defaultEnv == nil) {
            throw section.fail(defaultProject == nil ? "defaultProject" : "defaultEnv",
                               "defaultProject and defaultEnv are set together")
        }
        if let object = try section.object("projects") {
            for (name, value) in object {
                guard Self.isValidProjectName(name) else {
                    throw section.fail("projects", "'\(name)' is not a valid project name")
                }
                guard let projectValues = value.objectValue else { throw section.fail("projects.\(name)", "must be an object") }
                projects[name] = try DeclaredProject(name: name, ConfigSection(projectValues, path: "backbeam.projects.\(name)"))
            }
        }
    }
}

/// A project declared in the configuration: key pairs and declared indexes per environment, and the
/// optional schema.
public struct DeclaredProject: Sendable {
    /// The name.
    public var name: String
    /// Key pairs per environment.
    public var keys: [BackbeamEnvironment: [KeyPair]] = [:]
    /// Declared indexes per environment, as (entity, field).
    public var indexes: [BackbeamEnvironment: [(entity: String, field: String)]] = [:]
    /// The schema, if any.
    public var schema: ProjectSchema?
    /// Email confirmation, sender and social provider settings.
    public var users = UserSettings()

    /// A declaration with keys only (tests).
    public init(name: String, keys: [BackbeamEnvironment: [KeyPair]], schema: ProjectSchema? = nil) {
        self.name = name
        self.keys = keys
        self.schema = schema
    }

    init(name: String, _ section: ConfigSection) throws {
        self.name = name
        try section.rejectUnknownKeys(["dev", "pro", "schema", "email", "social"])
        users = try UserSettings(section)
        for env in BackbeamEnvironment.allCases {
            let envSection = try section.nested(env.rawValue)
            try envSection.rejectUnknownKeys(["keys", "indexes"])
            if let list = envSection["keys"] {
                guard let array = list.arrayValue else { throw envSection.fail("keys", "must be a list of {key, secret}") }
                keys[env] = try array.map { item in
                    guard let key = item["key"]?.stringValue, let secret = item["secret"]?.stringValue,
                          BackbeamConfig.isValidKey(key), BackbeamConfig.isValidKey(secret) else {
                        throw envSection.fail("keys", "each key pair needs a key and a secret of 1-128 printable ASCII characters")
                    }
                    return KeyPair(key: key, secret: secret)
                }
            }
            indexes[env] = try envSection.stringList("indexes", []).map { text in
                let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 2, Identifiers.isEntityID(parts[0]), Identifiers.isFieldID(parts[1]) else {
                    throw envSection.fail("indexes", "'\(text)' is not entity.field")
                }
                return (parts[0], parts[1])
            }
        }
        if let schemaObject = try section.object("schema") {
            schema = try SchemaConfig.parse(ConfigSection(schemaObject, path: section.path + ".schema"))
        }
    }
}

/// The `schema` of a declared project: `{strict, entities: {<e>: {fields: {<f>: "<suffix>" or {type, to,
/// many, inverse, options}}}}}` (§10).
enum SchemaConfig {
    static func parse(_ section: ConfigSection) throws -> ProjectSchema {
        try section.rejectUnknownKeys(["strict", "entities"])
        var schema = ProjectSchema(strict: try section.bool("strict", false))
        let entities = try section.nested("entities")
        for (entity, value) in entities.values {
            guard Identifiers.isEntityID(entity), let entityObject = value.objectValue else {
                throw entities.fail(entity, "must be an entity id holding {fields: {...}}")
            }
            let entitySection = ConfigSection(entityObject, path: entities.path + "." + entity)
            try entitySection.rejectUnknownKeys(["fields"])
            let fields = try entitySection.nested("fields")
            var declared = EntitySchema()
            for (field, spec) in fields.values {
                guard Identifiers.isFieldID(field), !Identifiers.isReservedFieldID(field) else {
                    throw fields.fail(field, "is not a valid field id")
                }
                declared.fields[field] = try fieldSpec(spec, at: fields.path + "." + field)
            }
            schema.entities[entity] = declared
        }
        return schema
    }

    private static func fieldSpec(_ spec: JSON, at path: String) throws -> SchemaField {
        if let suffix = spec.stringValue {
            guard let type = FieldType(rawValue: suffix) else { throw ConfigError(key: path, reason: "unknown type '\(suffix)'") }
            return SchemaField(type: type)
        }
        guard let object = spec.objectValue else { throw ConfigError(key: path, reason: "must be a type suffix or an object") }
        let section = ConfigSection(object, path: path)
        try section.rejectUnknownKeys(["type", "to", "many", "inverse", "options"])
        guard let typeText = try section.string("type"), let type = FieldType(rawValue: typeText) else {
            throw section.fail("type", "must be a type suffix (t, ta, rt, s, n, d, b, c, j, l, r)")
        }
        var field = SchemaField(type: type, many: try section.bool("many", false), target: try section.string("to"),
                                inverse: try section.string("inverse"), options: try section.stringList("options", []))
        if type != .reference { field.many = false }
        return field
    }
}
