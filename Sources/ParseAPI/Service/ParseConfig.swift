import Core
import HTTP

/// The validated `parse` configuration section (spec §1.4). Key names are camelCase.
struct ParseConfig: Sendable {
    var enabled = true
    var mountPath = "/parse"
    var additionalMountPaths: [String] = []
    var publicServerURL: String?
    var appId: String?
    var masterKey: String?
    var clientKey: String?
    var restAPIKey: String?
    var javascriptKey: String?
    var dotNetKey: String?
    var readOnlyMasterKey: String?
    var masterKeyIps: [IPRange] = [IPRange.parse("127.0.0.1"), IPRange.parse("::1")].compactMap { $0 }
    var trustProxy: [IPRange] = []
    var allowClientClassCreation = true
    var allowCustomObjectId = false
    var enforcePrivateUsers = true
    var enableAnonymousUsers = true
    var defaultLimit = 100
    var maxLimit = 10_000
    var maxUploadSize = 20 << 20
    var sessionLength = 31_536_000
    var expireInactiveSessions = true
    var revokeSessionOnPasswordReset = true
    var preserveFileName = false
    var fileUpload = FileUploadRules()
    var protectedFields: JSONObject = ["_User": ["*": ["email"]]]
    var idempotencyEnabled = true
    var idempotencyTTL = 300
    var lockoutThreshold: Int?
    var lockoutDurationMinutes = 5
    var passwordPattern: String?
    var passwordValidationError: String?
    var passwordDoNotAllowUsername = false
    var passwordMaxHistory = 0
    var passwordMaxAgeDays: Int?
    var allowOrigin: [String] = ["*"]
    var allowHeaders: [String] = []
    var queryTimeoutSeconds: Double = 10
    var batchMaxRequests = 1000
    /// Structural limits of writes (spec §3.9): they bound the work one request gives the single writer.
    var maxFieldsPerClass = 500
    var maxFieldsPerWrite = 1000
    var maxArrayOperationItems = 10_000
    var maxSchemaChangesPerRequest = 500
    var rateLimits: [RateLimitRule] = RateLimitRule.builtIn
    var bcryptCost = 10

    struct FileUploadRules: Sendable {
        var enableForAuthenticatedUser = true
        var enableForAnonymousUser = false
        var enableForPublic = false
        var blockedExtensions: [String] = ParseConfig.defaultBlockedExtensions
        var allowedExtensions: [String] = ["*"]
    }

    /// Spec §13.3: the newer Parse Server default list of extensions that can carry active content.
    static let defaultBlockedExtensions: [String] = {
        var list = ["xht", "svg", "svgz", "svg+xml", "xml", "xsl", "xslt", "xsl+xml", "xslt+xml", "xsd", "rng",
                    "rdf", "rdf+xml", "owl", "mathml", "mathml+xml"]
        for base in ["htm", "html", "xhtm", "xhtml", "shtm", "shtml"] { list += [base, base + "+xml"] }
        return list
    }()

    init() {}

    /// Validates `section`; throws `ConfigError` naming the offending key.
    init(section: JSONObject) throws {
        let r = ConfigSection(section, path: "parse")
        enabled = try r.bool("enabled", true)
        mountPath = try r.string("mountPath") ?? "/parse"
        try Self.checkMount(mountPath, key: "mountPath", r)
        additionalMountPaths = try r.stringList("additionalMountPaths", [])
        for m in additionalMountPaths { try Self.checkMount(m, key: "additionalMountPaths", r) }
        // The environment form QUARTET_PARSE_PUBLIC_SERVER_URL arrives as `publicServerUrl`.
        if let url = try r.string("publicServerURL") ?? r.string("publicServerUrl") {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw r.fail("publicServerURL", "must be an absolute http(s) URL")
            }
            publicServerURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        appId = try r.string("appId")
        masterKey = try r.string("masterKey")
        clientKey = try r.string("clientKey")
        restAPIKey = try r.string("restAPIKey") ?? r.string("restApiKey")
        javascriptKey = try r.string("javascriptKey")
        dotNetKey = try r.string("dotNetKey")
        readOnlyMasterKey = try r.string("readOnlyMasterKey")
        if let a = appId, a.isEmpty { throw r.fail("appId", "must not be empty") }
        if let m = masterKey, m.isEmpty { throw r.fail("masterKey", "must not be empty") }
        if section["masterKeyIps"] != nil {
            masterKeyIps = try Self.ranges(r.stringList("masterKeyIps", []), key: "masterKeyIps", r)
        }
        trustProxy = try Self.ranges(r.stringList("trustProxy", []), key: "trustProxy", r)
        allowClientClassCreation = try r.bool("allowClientClassCreation", true)
        allowCustomObjectId = try r.bool("allowCustomObjectId", false)
        enforcePrivateUsers = try r.bool("enforcePrivateUsers", true)
        enableAnonymousUsers = try r.bool("enableAnonymousUsers", true)
        maxLimit = try r.int("maxLimit", 10_000, min: 1)
        defaultLimit = try r.int("defaultLimit", 100, min: 1)
        maxUploadSize = try r.int("maxUploadSize", 20 << 20, min: 1)
        sessionLength = try r.int("sessionLength", 31_536_000, min: 1)
        expireInactiveSessions = try r.bool("expireInactiveSessions", true)
        revokeSessionOnPasswordReset = try r.bool("revokeSessionOnPasswordReset", true)
        preserveFileName = try r.bool("preserveFileName", false)
        let fu = try r.nested("fileUpload")
        fileUpload.enableForAuthenticatedUser = try fu.bool("enableForAuthenticatedUser", true)
        fileUpload.enableForAnonymousUser = try fu.bool("enableForAnonymousUser", false)
        fileUpload.enableForPublic = try fu.bool("enableForPublic", false)
        fileUpload.blockedExtensions = try fu.stringList("blockedExtensions", Self.defaultBlockedExtensions)
            .map { $0.lowercased() }
        fileUpload.allowedExtensions = try fu.stringList("allowedExtensions", ["*"]).map { $0.lowercased() }
        if let pf = try r.object("protectedFields") { protectedFields = pf }
        let idem = try r.nested("idempotency")
        idempotencyEnabled = try idem.bool("enabled", true)
        idempotencyTTL = try idem.int("ttl", 300, min: 1)
        if section["accountLockout"] != nil {
            let lock = try r.nested("accountLockout")
            lockoutThreshold = try lock.int("threshold", 5, min: 1, max: 999)
            lockoutDurationMinutes = try lock.int("duration", 5, min: 1, max: 99_999)
        }
        if section["passwordPolicy"] != nil {
            let pp = try r.nested("passwordPolicy")
            passwordPattern = try pp.string("validatorPattern")
            if let p = passwordPattern, (try? RegexProgram.compile(p, options: "", allowLookaround: true)) == nil {
                throw pp.fail("validatorPattern", "is not a supported regular expression")
            }
            passwordValidationError = try pp.string("validationError")
            passwordDoNotAllowUsername = try pp.bool("doNotAllowUsername", false)
            passwordMaxHistory = try pp.int("maxPasswordHistory", 0, min: 0, max: 20)
            if pp.contains("maxPasswordAge") { passwordMaxAgeDays = try pp.int("maxPasswordAge", 0, min: 0, max: 100_000) }
        }
        allowOrigin = try r.stringList("allowOrigin", ["*"])
        if allowOrigin.isEmpty { allowOrigin = ["*"] }
        allowHeaders = try r.stringList("allowHeaders", [])
        queryTimeoutSeconds = try r.double("queryTimeout", 10)
        batchMaxRequests = try r.int("batchMaxRequests", 1000, min: 1, max: 100_000)
        maxFieldsPerClass = try r.int("maxFieldsPerClass", 500, min: 1, max: 100_000)
        maxFieldsPerWrite = try r.int("maxFieldsPerWrite", 1000, min: 1, max: 1_000_000)
        maxArrayOperationItems = try r.int("maxArrayOperationItems", 10_000, min: 1, max: 10_000_000)
        maxSchemaChangesPerRequest = try r.int("maxSchemaChangesPerRequest", 500, min: 1, max: 1_000_000)
        bcryptCost = try r.int("bcryptCost", 10, min: 4, max: 31)
        if let rl = section["rateLimit"], !rl.isNull { rateLimits = try RateLimitRule.parse(rl, key: "parse.rateLimit") }
    }

    /// True when at least one client key is configured (then one must match on every request, §3.2).
    var requiresClientKey: Bool {
        clientKey != nil || restAPIKey != nil || javascriptKey != nil || dotNetKey != nil
    }

    private static func checkMount(_ m: String, key: String, _ r: ConfigSection) throws {
        guard m.hasPrefix("/"), m.count > 1, !m.hasSuffix("/"), !m.contains("//"), !m.contains("?") else {
            throw r.fail(key, "must start with '/' and must not end with '/'")
        }
    }

    private static func ranges(_ list: [String], key: String, _ r: ConfigSection) throws -> [IPRange] {
        try list.map { entry in
            guard let range = IPRange.parse(entry) else { throw r.fail(key, "'\(entry)' is not an IP address or CIDR") }
            return range
        }
    }
}
