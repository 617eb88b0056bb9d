import Core
import HTTP
import Logging
import Storage

/// Everything a Parse request needs, shared by all worker threads (immutable after start-up).
final class ParseApp: Sendable {
    let config: ParseConfig
    let store: any ParseStore
    let blobs: BlobStore?
    let logger: Logger
    let metrics: MetricsRegistry
    /// The effective application id (configured or generated at first start).
    let appId: String
    /// SHA-256 of the master key; keys are compared digest to digest so lengths do not leak (spec §3.1).
    let masterKeyDigest: [UInt8]
    let readOnlyMasterKeyDigest: [UInt8]?
    let writer: ResponseWriter
    let routes: RouteTable
    let limiter: RateLimiter
    /// Client addresses behind `parse.trustProxy` (spec §3.3).
    let addresses: ClientAddressResolver
    /// The daemon's view of readiness, if it gave one (see `ParseService.setHealthProvider`).
    let health = Locked<(@Sendable () -> ParseHealthState)?>(nil)
    /// Request counters by "method pattern status", cached: a registry lookup builds label text under a
    /// lock on every call, which is measurable on cheap requests.
    let requestCounters = RequestCounters()

    init(config: ParseConfig, store: any ParseStore, blobs: BlobStore?, logger: Logger, metrics: MetricsRegistry,
         appId: String, masterKeyDigest: [UInt8]) {
        self.config = config
        self.store = store
        self.blobs = blobs
        self.logger = logger
        self.metrics = metrics
        self.appId = appId
        self.masterKeyDigest = masterKeyDigest
        self.readOnlyMasterKeyDigest = config.readOnlyMasterKey.map { Crypto.sha256(Array($0.utf8)) }
        self.writer = ResponseWriter(config: config)
        var table = RouteTable()
        ParseRoutes.registerAll(&table)
        self.routes = table
        self.limiter = RateLimiter(rules: config.rateLimits)
        self.addresses = ClientAddressResolver(trustedProxies: config.trustProxy)
    }

    /// Constant-time comparison of a candidate key with a stored digest.
    static func keyMatches(_ candidate: String?, digest: [UInt8]) -> Bool {
        guard let candidate else { return false }
        return Crypto.constantTimeEquals(Crypto.sha256(Array(candidate.utf8)), digest)
    }
}
