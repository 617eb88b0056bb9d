import Foundation
import Core
import Auth
import HTTP

/// The validated configuration the daemon runs with.
public struct QuartetConfiguration: Sendable {
    /// The merged tree (every section, API sections included), as `check-config` prints it.
    public let tree: JSONObject
    /// The `admin` section, read by Auth.
    public let admin: AdminSettings

    /// Validates every platform option of `tree`.
    public init(tree: JSONObject) throws {
        for option in ConfigSchema.platform {
            let value = tree[option.section]?.objectValue?[option.key] ?? option.defaultValue
            if let problem = option.problem(with: value) {
                throw ConfigError(key: option.path, reason: problem)
            }
        }
        self.tree = tree
        admin = try AdminSettings(ConfigSection(tree["admin"]?.objectValue ?? JSONObject(), path: "admin"))
        if tlsCertificate != nil, tlsPrivateKey == nil {
            throw ConfigError(key: "server.tlsPrivateKey", reason: "required when server.tlsCertificate is set")
        }
        if tlsPrivateKey != nil, tlsCertificate == nil {
            throw ConfigError(key: "server.tlsCertificate", reason: "required when server.tlsPrivateKey is set")
        }
        if corsAllowCredentials, corsAllowedOrigins.contains("*") {
            throw ConfigError(key: "server.corsAllowCredentials", reason: "cannot be true while corsAllowedOrigins contains \"*\"")
        }
        for entry in metricsAllowFromEntries where IPRange.parse(entry) == nil {
            throw ConfigError(key: "server.metricsAllowFrom", reason: "'\(entry)' is not an IP address or CIDR range")
        }
    }

    /// A section of the tree (an API's options), empty when absent.
    public func section(_ name: String) -> JSONObject { tree[name]?.objectValue ?? JSONObject() }

    func value(_ section: String, _ key: String) -> JSON {
        tree[section]?.objectValue?[key] ?? ConfigSchema.option(section, key)?.defaultValue ?? .null
    }
    func int(_ section: String, _ key: String) -> Int { value(section, key).int64Value.flatMap { Int(exactly: $0) } ?? 0 }
    func string(_ section: String, _ key: String) -> String? { value(section, key).stringValue }
    func bool(_ section: String, _ key: String) -> Bool { value(section, key).boolValue ?? false }

    public var host: String { string("server", "host") ?? "127.0.0.1" }
    public var port: Int { int("server", "port") }
    public var ioThreads: Int { int("server", "ioThreads") }
    public var workerThreads: Int { int("server", "workerThreads") }
    public var runningWorkers: Int? { value("server", "runningWorkers").int64Value.flatMap { Int(exactly: $0) } }
    public var maxConnections: Int { int("server", "maxConnections") }
    public var headerReadTimeoutSeconds: Int { int("server", "headerReadTimeoutSeconds") }
    public var bodyReadTimeoutSeconds: Int { int("server", "bodyReadTimeoutSeconds") }
    public var minBodyBytesPerSecond: Int { int("server", "minBodyBytesPerSecond") }
    public var idleTimeoutSeconds: Int { int("server", "idleTimeoutSeconds") }
    public var shutdownGraceSeconds: Int { int("server", "shutdownGraceSeconds") }
    public var maxRequestTargetBytes: Int { int("server", "maxRequestTargetBytes") }
    public var maxHeaderBytes: Int { int("server", "maxHeaderBytes") }
    public var maxHeaderCount: Int { int("server", "maxHeaderCount") }
    public var maxBodyBytes: Int { int("server", "maxBodyBytes") }
    public var inMemoryBodyBytes: Int { int("server", "inMemoryBodyBytes") }
    public var maxDecodingBytes: Int { int("server", "maxDecodingBytes") }
    public var decodingWaitMilliseconds: Int { int("server", "decodingWaitMilliseconds") }
    public var maxJsonValues: Int { int("server", "maxJsonValues") }
    public var maxJsonStringBytes: Int { int("server", "maxJsonStringBytes") }
    public var accessLog: Bool { bool("server", "accessLog") }
    public var corsAllowedOrigins: [String] { value("server", "corsAllowedOrigins").arrayValue?.compactMap(\.stringValue) ?? [] }
    public var corsAllowCredentials: Bool { bool("server", "corsAllowCredentials") }
    private var metricsAllowFromEntries: [String] {
        value("server", "metricsAllowFrom").arrayValue?.compactMap(\.stringValue) ?? []
    }
    /// Who may read `/metrics` without the server admin's credentials.
    public var metricsAllowFrom: [IPRange] { metricsAllowFromEntries.compactMap(IPRange.parse) }
    public var tlsCertificate: String? { string("server", "tlsCertificate") }
    public var tlsPrivateKey: String? { string("server", "tlsPrivateKey") }
    public var tlsPort: Int? { value("server", "tlsPort").int64Value.flatMap { Int(exactly: $0) } }
    /// CA certificates trusted by outbound TLS besides the system's (a private CA of a relay or provider).
    public var outboundCaFile: String? { string("server", "outboundCaFile") }

    public var dataDir: String { string("storage", "dataDir") ?? "./data" }
    public var synchronous: String { string("storage", "synchronous") ?? "FULL" }
    public var busyTimeoutMilliseconds: Int { int("storage", "busyTimeoutMilliseconds") }
    public var readers: Int { int("storage", "readers") }
    public var heavyReaders: Int? { value("storage", "heavyReaders").int64Value.flatMap { Int(exactly: $0) } }
    public var heavyReadersPerClient: Int { int("storage", "heavyReadersPerClient") }
    public var heavyReadWaitMilliseconds: Int { int("storage", "heavyReadWaitMilliseconds") }
    public var maxBatchSize: Int { int("storage", "maxBatchSize") }
    public var mmapSizeMiB: Int { int("storage", "mmapSizeMiB") }
    public var walAutocheckpointPages: Int { int("storage", "walAutocheckpointPages") }
    public var walWriteBufferBytes: Int { int("storage", "walWriteBufferBytes") }
    public var migrationsDir: String? { string("storage", "migrationsDir") }
    public var blobGcIntervalSeconds: Int { int("storage", "blobGcIntervalSeconds") }
    public var statisticsIntervalSeconds: Int { int("storage", "statisticsIntervalSeconds") }

    public var logLevel: String { string("logging", "level") ?? "info" }
    public var logFormat: String { string("logging", "format") ?? "text" }

    public var adminUser: String { admin.name }
    public var adminPassword: String? { admin.password }

    /// Paths derived from the data directory.
    public var databasePath: String { (dataDir as NSString).appendingPathComponent("quartet.sqlite3") }
    public var blobDirectory: String { (dataDir as NSString).appendingPathComponent("blobs") }
    public var tempDirectory: String { (dataDir as NSString).appendingPathComponent("tmp") }
}
