import Logging
import Core
import HTTP
import Storage
import Auth

/// The CouchDB-compatible document API (spec `couch.md`): mounted at `couch.mountPath` on the main listener,
/// with the host-root `/_session` there too, and optionally at `/` on a second listener (`couch.rootListen`).
public final class CouchService: Sendable {
    /// The validated configuration.
    public let config: CouchConfig
    let context: CouchContext

    /// Validates `config` (the `couch` section; throws `ConfigError` naming the key) and opens the store
    /// (the `couch_*` tables must exist). `admin` is the product's server admin, Couch's only one in P1.
    /// `decodingBudget`: the servers' budget, which decoded gzip request bodies are charged to.
    public convenience init(config: JSONObject, storage: Storage, blobs: BlobStore, admin: ServerAdmin, logger: Logger,
                            decodingBudget: DecodingBudget? = nil) throws {
        let parsed = try CouchConfig(config)
        let store = try SQLiteCouchStore(storage: storage, blobs: blobs)
        if parsed.enabled { try UsersDatabase.ensure(store: store) }
        self.init(config: parsed, store: store, blobs: blobs, bus: storage.changes, admin: admin, logger: logger,
                  decodingBudget: decodingBudget)
    }

    /// The service over any store; `bus` carries the store's commit events (`_changes` feeds wait on them).
    init(config: CouchConfig, store: any CouchStore, blobs: BlobStore, bus: ChangeBus, admin: ServerAdmin,
         logger: Logger, decodingBudget: DecodingBudget? = nil) {
        self.config = config
        let users = UserDirectory(store: store, ttl: config.authCacheTtl)
        let authenticator = CouchAuthenticator(admin: admin, users: users, secret: store.metadata.cookieSecret,
                                               sessionTimeout: config.sessionTimeout)
        context = CouchContext(config: config, store: store, blobs: blobs, authenticator: authenticator,
                               bus: bus, logger: logger, decodingBudget: decodingBudget)
    }

    /// The methods the Couch groups register; the resource decides which of them it answers (405 with its own
    /// `Allow` list otherwise, also for methods not listed here).
    static let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .copy, .options, .patch]

    /// Mounts the API at `couch.mountPath` and `/_session` at the root of the main listener's `router`.
    /// Does nothing when `couch.enabled` is false.
    public func mount(on router: Router) {
        guard config.enabled else { return }
        register(router.group(config.mountPath, limits: limits, errorRenderer: renderer(mount: config.mountPath),
                              decodesPath: false), mount: config.mountPath)
        // Decision §1.4: the CouchDB replicator posts its cookie login to the host root, whatever the prefix.
        let session = router.group("/_session", limits: limits, errorRenderer: renderer(mount: ""), decodesPath: false)
        let handler = CouchHandler.handler(mount: "", context: context)
        // `/_session` takes a small JSON or form body only.
        session.on(Self.methods, "", maxBodyBytes: config.jsonRequestLimit, handler)
    }

    /// Mounts the same API at the root of `router`, the router of the root listener.
    public func mountAtRoot(on router: Router) {
        guard config.enabled else { return }
        register(router.group("", limits: limits, errorRenderer: renderer(mount: ""), decodesPath: false), mount: "")
    }

    private func register(_ group: RouteGroup, mount: String) {
        // One `*` route and nothing else: the router then hands every path below the prefix (the prefix itself
        // included) to it without walking its tree, and the handler parses the path itself.
        let handler = CouchHandler.handler(mount: mount, context: context)
        let config = config
        group.on(Self.methods, "*", maxBodyBytes: config.maxRequestSize,
                 bodyLimit: { head, rawPath in CouchBodyLimit.limit(head, rawPath: rawPath, mount: mount, config: config) },
                 attempt: CouchHandler.attempt(mount: mount, context: context), handler)
    }

    private func renderer(mount: String) -> ErrorRenderer {
        CouchHandler.renderer(mount: mount, context: context)
    }

    /// The group's limits: only the body limit matters here, and it is set per route (`couch.maxRequestSize`,
    /// which may exceed the server-wide body limit, lowered to `couch.maxJsonRequestSize` for JSON bodies by
    /// `CouchBodyLimit`); the rest stays at the server's.
    private var limits: Limits {
        var limits = Limits()
        limits.maxRequestTarget = Int.max
        limits.maxHeaderBytes = Int.max
        limits.maxHeaderCount = Int.max
        limits.maxBodyBytes = Int.max
        limits.inMemoryBodyThreshold = Int.max
        return limits
    }
}
