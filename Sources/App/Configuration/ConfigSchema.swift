import Core
import Auth

/// Every platform option with its default. The API sections (`parse`, `datastore`, ...) are validated by
/// their APIs when they start (documented in `docs/configuration.md` as well).
///
/// `Config/quartet.json` must list exactly these defaults (a test keeps the two in step), and
/// `docs/configuration.md` documents each one.
public enum ConfigSchema {
    static let port = 0...65_535
    static let positive = 1...Int(Int32.max)
    static let seconds = 1...86_400

    /// Platform options, in documentation order.
    public static let platform: [ConfigOption] = [
        ConfigOption("server", "host", "127.0.0.1", .string, "Address to listen on (0.0.0.0 for all IPv4, :: for all)."),
        ConfigOption("server", "port", 8080, .integer(port), "TCP port; 0 picks a free one (printed at start)."),
        ConfigOption("server", "ioThreads", 2, .integer(1...64), "Event-loop threads that own sockets."),
        ConfigOption("server", "workerThreads", 64, .integer(1...4096), "Threads that run request handlers."),
        ConfigOption("server", "runningWorkers", nil, .optionalInteger(1...4096), "Workers a queue of requests wakes while none of them blocks; null: twice the cores."),
        ConfigOption("server", "maxConnections", 20_000, .integer(positive), "Open connections beyond this are accepted and closed."),
        ConfigOption("server", "headerReadTimeoutSeconds", 10, .integer(seconds), "A request head must arrive within this time (slow clients are dropped)."),
        ConfigOption("server", "bodyReadTimeoutSeconds", 30, .integer(seconds), "A request body gets this long to start and may fall this far behind minBodyBytesPerSecond (408 beyond)."),
        ConfigOption("server", "minBodyBytesPerSecond", 1024, .integer(0...1_000_000_000), "The rate a request body must keep up after bodyReadTimeoutSeconds; 0: the whole body within bodyReadTimeoutSeconds."),
        ConfigOption("server", "idleTimeoutSeconds", 60, .integer(seconds), "Idle keep-alive connections are closed after this."),
        ConfigOption("server", "shutdownGraceSeconds", 10, .integer(0...3600), "On SIGTERM, in-flight requests get this long to finish; then they are cancelled and the process exits."),
        ConfigOption("server", "maxRequestTargetBytes", 65_536, .integer(positive), "Longest request target (414 beyond)."),
        ConfigOption("server", "maxHeaderBytes", 65_536, .integer(positive), "Largest header section (431 beyond)."),
        ConfigOption("server", "maxHeaderCount", 100, .integer(positive), "Most header fields (431 beyond)."),
        ConfigOption("server", "maxBodyBytes", 16_777_216, .integer(positive), "Largest request body unless a route allows more (413 beyond)."),
        ConfigOption("server", "inMemoryBodyBytes", 1_048_576, .integer(positive), "Bodies above this are spooled to a temporary file."),
        ConfigOption("server", "maxDecodingBytes", 268_435_456, .integer(65_536...Int(Int32.max)), "Memory that request bodies being read and parsed may take at once, server-wide (bodies of 64 KiB or more are charged their worst case while their handler runs); others wait."),
        ConfigOption("server", "decodingWaitMilliseconds", 2000, .integer(0...600_000), "How long a request waits for maxDecodingBytes to have room before it is answered 503."),
        ConfigOption("server", "maxJsonValues", 1_000_000, .integer(positive), "Most values (scalars, arrays, objects) one JSON request body may hold; refused while parsing (413/400 in the API's format)."),
        ConfigOption("server", "maxJsonStringBytes", 16_777_216, .integer(positive), "Longest string in a JSON request body, in bytes as sent; refused while parsing."),
        ConfigOption("server", "accessLog", true, .boolean, "One log line per request."),
        ConfigOption("server", "corsAllowedOrigins", ["*"], .stringList, "Origins allowed by CORS for the operational endpoints and APIs without their own CORS rules."),
        ConfigOption("server", "corsAllowCredentials", false, .boolean, "Send Access-Control-Allow-Credentials (never together with `*`)."),
        ConfigOption("server", "metricsAllowFrom", ["127.0.0.0/8", "::1"], .stringList,
                     "Client addresses and CIDR ranges that may read /metrics; any other needs the server admin's credentials (empty: always)."),
        ConfigOption("server", "tlsCertificate", nil, .optionalString, "PEM certificate chain; enables TLS together with tlsPrivateKey."),
        ConfigOption("server", "tlsPrivateKey", nil, .optionalString, "PEM private key for tlsCertificate."),
        ConfigOption("server", "tlsPort", nil, .optionalInteger(port), "Second listener for TLS; null serves TLS on `port` instead of plain HTTP."),
        ConfigOption("server", "outboundCaFile", nil, .optionalString, "PEM file of CA certificates trusted, besides the system's, by outbound TLS (SMTP relay, social providers)."),
        ConfigOption("storage", "dataDir", "./data", .string, "Directory holding the database, blobs and temporary files."),
        ConfigOption("storage", "synchronous", "FULL", .choice(["FULL", "EXTRA", "NORMAL", "OFF"]), "SQLite synchronous mode; FULL makes every acknowledged write durable."),
        ConfigOption("storage", "busyTimeoutMilliseconds", 5000, .integer(0...600_000), "How long a connection waits for a lock."),
        ConfigOption("storage", "readers", 8, .integer(1...256), "Read-only connections in the pool (and as many again for point reads)."),
        ConfigOption("storage", "heavyReaders", nil, .optionalInteger(1...256), "Readers slow queries (regex, unindexed, aggregate) may hold at once; null: half of readers."),
        ConfigOption("storage", "heavyReadersPerClient", 2, .integer(1...256), "Slow queries one client (user, else address) may run at once."),
        ConfigOption("storage", "heavyReadWaitMilliseconds", 1000, .integer(0...600_000), "How long a slow query waits for a place among heavyReaders before it is refused as timed out."),
        ConfigOption("storage", "mmapSizeMiB", 256, .integer(0...2048), "How much of the database file each query and write connection reads through a shared memory map (0: off)."),
        ConfigOption("storage", "walAutocheckpointPages", 10_000, .integer(1...10_000_000), "WAL pages after which the writer checkpoints them into the database file."),
        ConfigOption("storage", "walWriteBufferBytes", 1_048_576, .zeroOrInteger(65_536...1_073_741_824), "Buffer that gathers a commit's WAL writes into one (synchronous FULL or EXTRA only); 0: off."),
        ConfigOption("storage", "maxBatchSize", 512, .integer(1...100_000), "Most write jobs committed together by group commit."),
        ConfigOption("storage", "migrationsDir", nil, .optionalString, "Where the NNNN_name.sql migrations are; null searches next to the binary, then ./Migrations."),
        ConfigOption("storage", "blobGcIntervalSeconds", 3600, .integer(seconds), "How often unreferenced blobs older than this are deleted."),
        ConfigOption("storage", "statisticsIntervalSeconds", 3600, .integer(seconds), "How often the query planner's statistics are refreshed (also at start and after index changes)."),
        ConfigOption("logging", "level", "info", .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]), "Lowest level logged."),
        ConfigOption("logging", "format", "text", .choice(["text", "json"]), "Human-readable lines or JSON lines on stdout."),
        ConfigOption("admin", "user", "admin", .string, "Name of the server admin (Couch server admin, /_quartet/admin)."),
        ConfigOption("admin", "password", nil, .optionalString, "Server admin password; when null one is generated at first start, printed once and stored hashed."),
        ConfigOption("admin", "maxFailedLogins", .int(FailedLoginPolicy().maxFailures), .integer(FailedLoginPolicy.maxFailuresRange),
                     "Wrong admin passwords accepted from one client address per window; further attempts get 429."),
        ConfigOption("admin", "failedLoginWindowSeconds", .int(FailedLoginPolicy().windowSeconds),
                     .integer(FailedLoginPolicy.windowSecondsRange), "The window of maxFailedLogins, from an address's first failure."),
    ]


    /// Looks an option up by section and key.
    public static func option(_ section: String, _ key: String) -> ConfigOption? {
        platform.first { $0.section == section && $0.key == key }
    }

    /// The built-in defaults as a configuration tree.
    public static var defaults: JSONObject {
        var root = JSONObject()
        for option in platform {
            var section = root[option.section]?.objectValue ?? JSONObject()
            section[option.key] = option.defaultValue
            root[option.section] = .object(section)
        }
        return root
    }
}
