import ChangeFeed
import Core
import HTTP
import Storage
import Auth
import Logging

/// The Dropbox-Datastore-compatible API: `/1/datastores/*` and `/r5/datastores/*` (identical), plus the
/// token admin endpoints under `/_quartet/admin/datastore/`.
public final class DatastoreService: Sendable {
    /// The validated configuration.
    public let config: DatastoreConfig
    private let context: EndpointContext
    private let serverAdmin: ServerAdmin?

    /// Validates `config` (the `datastore` section; throws `ConfigError` naming the key), loads the static
    /// tokens (hashed) and starts the `await` feed over the storage's change events. The `ds_*` tables must
    /// exist. `serverAdmin` checks the credentials of the admin routes (nil: every admin request is refused).
    public convenience init(config: JSONObject, storage: Storage, blobs: BlobStore, logger: Logger, metrics: MetricsRegistry,
                            serverAdmin: ServerAdmin? = nil) throws {
        let parsed = try DatastoreConfig(config)
        let store = SQLiteDatastoreStore(storage: storage, limits: SizeLimits(headroomPercent: parsed.sizeHeadroomPercent),
                                         teams: TeamDirectory(parsed.teams))
        try self.init(config: parsed, store: store, changes: storage.changes, logger: logger, metrics: metrics,
                      serverAdmin: serverAdmin)
    }

    /// Builds the service over any store (tests use this with the SQLite store on a temporary database).
    init(config: DatastoreConfig, store: any DatastoreStore, changes: ChangeBus, logger: Logger, metrics: MetricsRegistry,
         serverAdmin: ServerAdmin?) throws {
        self.config = config
        self.serverAdmin = serverAdmin
        let renderer = DatastoreErrorRenderer(logger: logger)
        let apiMetrics = DatastoreMetrics(metrics)
        let cap = DeltaBatchCap(maxDeltas: config.maxDeltasPerResponse, maxBytes: config.maxDeltaBytesPerResponse)
        let evaluator = AwaitEvaluator(store: store, cap: cap, renderer: renderer)
        let awaits = LongPollFeed<AwaitRequest>(bus: changes, label: "quartet.datastore.await",
                                                maxPerKey: config.maxAwaitsPerUser, evaluator: { evaluator.evaluate($0) },
                                                onCountChange: { apiMetrics.waiting.set(Double($0)) })
        self.context = EndpointContext(store: store, awaits: awaits, config: config, renderer: renderer,
                                       metrics: apiMetrics, logger: logger)
        if !config.staticTokens.isEmpty {
            logger.warning("datastore.staticTokens is set: development tokens are accepted",
                           metadata: ["count": "\(config.staticTokens.count)"])
        }
        try store.replaceStaticTokens(config.staticTokens.map { (TokenHasher.hash($0.token), $0.user) })
    }

    /// Registers both prefixes (one route file per endpoint) and the admin routes, with this API's error
    /// renderer and limits. Does nothing when `datastore.enabled` is false.
    public func mount(on router: Router) {
        guard config.enabled else { return }
        // A group may only lower the server's limits; unset ones are left at the maximum so the server's apply.
        // The body limit is set per route (it may exceed the server's: a legal delta grows when form-encoded).
        var limits = Limits()
        limits.maxRequestTarget = config.maxUrlBytes
        limits.maxHeaderBytes = config.maxHeaderBytes ?? Int.max
        limits.maxHeaderCount = config.maxHeaderCount ?? Int.max
        limits.maxBodyBytes = Int.max
        limits.inMemoryBodyThreshold = Int.max
        let renderer = context.renderer
        for prefix in DatastoreDefaults.prefixes {
            let group = router.group(prefix, limits: limits, errorRenderer: { renderer.render($0, $1) })
            ListDatastoresRoute.register(on: group, context)
            GetDatastoreRoute.register(on: group, context)
            GetOrCreateDatastoreRoute.register(on: group, context)
            CreateDatastoreRoute.register(on: group, context)
            DeleteDatastoreRoute.register(on: group, context)
            GetSnapshotRoute.register(on: group, context)
            GetDeltasRoute.register(on: group, context)
            PutDeltaRoute.register(on: group, context)
            AwaitRoute.register(on: group, context)
            UnknownEndpointRoute.register(on: group)
        }
        let admin = router.group("/_quartet/admin/datastore", errorRenderer: { renderer.render($0, $1) })
        AdminTokensRoute.register(on: admin, context, serverAdmin: serverAdmin)
    }

    /// `quartet datastore token create USER`: creates the user if needed and returns a new token.
    /// Throws `DatastoreStoreError.invalidUserName` for a name outside `[A-Za-z0-9._@-]{1,64}`.
    public static func createToken(user: String, storage: Storage) throws -> String {
        try DatastoreTokens.issue(userName: user, store: cliStore(storage), source: "cli").1
    }

    /// `quartet datastore token revoke TOKEN`: true when a live token was revoked.
    public static func revokeToken(_ token: String, storage: Storage) throws -> Bool {
        try DatastoreTokens.revoke(token, store: cliStore(storage))
    }

    private static func cliStore(_ storage: Storage) -> SQLiteDatastoreStore {
        SQLiteDatastoreStore(storage: storage, limits: SizeLimits(headroomPercent: 10), teams: TeamDirectory())
    }
}
