import Foundation
import Core
import HTTP
import Storage
import Auth
import Logging

/// The Backbeam-compatible API (spec backbeam.md): `/data/...`, `/user/...` and `/push/...` addressed by
/// Host `api-<env>-<project>.<domain>` or by the prefix `/backbeam/<project>/<env>/...`, plus its admin
/// endpoints under `/_quartet/admin/backbeam/`.
public final class BackbeamService: Sendable {
    /// The validated configuration.
    public let config: BackbeamConfig
    /// What the endpoints share.
    public let context: ServiceContext
    /// The endpoint table: every route file registers its endpoints here before `mount`.
    public let endpoints: EndpointTable
    private let dispatcher: BackbeamDispatcher
    private let serverAdmin: ServerAdmin?
    /// The file endpoints' services; nil without a blob store.
    private let files: FileServices?

    /// The roots served at the daemon's root path (§1.4), and the path-prefix mount.
    public static let roots = ["/data", "/user", "/push", APITarget.prefix]

    /// Validates `config` (the `backbeam` section; throws `ConfigError` naming the key), makes sure every
    /// declared project has its two spaces and declared indexes, and registers the endpoints.
    /// With `blobs`, file objects are served (§5.3), their resized variants cached in `backbeam.images.directory`
    /// or else `imageDirectory`, with the image cache's gauges in `metrics`.
    public convenience init(config: JSONObject, storage: Storage, logger: Logger, serverAdmin: ServerAdmin?,
                            tempDirectory: String, blobs: BlobStore? = nil, imageDirectory: String? = nil,
                            metrics: MetricsRegistry? = nil) throws {
        let parsed = try BackbeamConfig(config)
        let store = SQLiteBackbeamStore(storage: storage, blobs: blobs, queryPlanCacheSize: parsed.queryPlanCacheSize,
                                        countCacheSize: parsed.countCacheSize, metrics: metrics)
        // A disabled API makes no variant cache directory.
        let files = try blobs.flatMap { blobs -> FileServices? in
            guard parsed.enabled else { return nil }
            return try FileServices(store: store, blobs: blobs, settings: parsed.images,
                                    defaultImageDirectory: imageDirectory ?? blobs.directory + "-images", metrics: metrics)
        }
        try self.init(config: parsed, store: store, logger: logger, serverAdmin: serverAdmin, tempDirectory: tempDirectory,
                      files: files)
    }

    /// The service over any store.
    public init(config: BackbeamConfig, store: any BackbeamStore, logger: Logger, serverAdmin: ServerAdmin?,
                tempDirectory: String, clock: @escaping @Sendable () -> Int64 = BackbeamClock.now,
                files: FileServices? = nil, mailer: (any BackbeamMailer)? = nil,
                pushSender: (any PushSender)? = nil) throws {
        self.config = config
        self.files = files
        self.serverAdmin = serverAdmin
        var declared: [String: Project] = [:]
        for (name, project) in config.projects {
            var spaces: [BackbeamEnvironment: SpaceID] = [:]
            for env in BackbeamEnvironment.allCases {
                guard let space = try store.space(project: name, env: env, create: true) else { continue }
                spaces[env] = space
                for index in project.indexes[env] ?? [] {
                    _ = try store.declareIndex(space: space, entity: index.entity, field: index.field, now: clock())
                }
            }
            var declaredProject = Project(name: name, source: .config, keys: project.keys, schema: project.schema, spaces: spaces)
            declaredProject.users = project.users
            declared[name] = declaredProject
        }
        let projects = ProjectDirectory(declared: declared, store: store,
                                        nonces: NonceReplayCaches(capacityPerEnvironment: config.nonceCacheCapacity))
        for name in try projects.all().map(\.name) where declared[name] != nil {
            if try store.createdProject(named: name) != nil {
                logger.warning("backbeam project declared in the configuration and created in the database; the configuration wins",
                               metadata: ["project": "\(name)"])
            }
        }
        let defaultMailer: any BackbeamMailer = config.smtp.map { SMTPMailer(settings: $0, logger: logger) } ?? LogMailer(logger: logger)
        let outboxes = Outboxes(store: store, mailer: mailer ?? defaultMailer,
                                sender: pushSender ?? LogPushSender(logger: logger),
                                retry: MailRetry(baseSeconds: config.smtp?.retrySeconds ?? 30), logger: logger)
        context = ServiceContext(config: config, store: store, projects: projects, bqlLimits: BQLLimits(), logger: logger,
                                 outboxes: outboxes,
                                 providers: ProviderClient(timeoutSeconds: config.socialTimeoutSeconds, logger: logger),
                                 dummyPasswordHash: try PasswordHasher.hash(RandomID.hex(16), cost: config.bcryptCost),
                                 parsedQueries: BoundedCache(capacity: config.queryPlanCacheSize))
        Self.warnAboutUncheckedTokens(config, logger: logger)
        endpoints = EndpointTable()
        // File routes first: the route table is matched top to bottom (§1.4).
        if let files {
            FileUploadRoutes.register(on: endpoints, context, files: files)
            FileDownloadRoutes.register(on: endpoints, context, files: files)
        }
        DataQueryRoutes.register(on: endpoints, context)
        DataGeoRoutes.register(on: endpoints, context)
        UserEmailRoutes.register(on: endpoints, context)
        UserPageRoutes.register(on: endpoints, context)
        SocialRoutes.register(on: endpoints, context)
        PushRoutes.register(on: endpoints, context)
        DataObjectRoutes.register(on: endpoints, context)
        dispatcher = BackbeamDispatcher(config: config, projects: projects, store: store, endpoints: endpoints,
                                        logger: logger, tempDirectory: tempDirectory, clock: clock)
        // Rows a stop left queued are handed over now.
        outboxes.mailQueued()
        outboxes.pushQueued()
    }

    /// The methods the mounts take; the dispatcher matches by the effective method (`_method`, §2.1), so every
    /// method reaches it and it answers 404/405 itself.
    static let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .options, .patch]

    /// Mounts the roots and the admin endpoints. Does nothing when `backbeam.enabled` is false.
    public func mount(on router: Router) {
        guard config.enabled else { return }
        // A group may only lower the server's limits; the body limit of §2.5 is the group's.
        var limits = Limits()
        limits.maxRequestTarget = config.maxRequestTargetBytes
        limits.maxHeaderBytes = config.maxHeaderBytes
        limits.maxHeaderCount = Int.max
        limits.maxBodyBytes = config.maxBodyBytes
        limits.inMemoryBodyThreshold = Int.max
        let dispatcher = self.dispatcher
        for root in Self.roots {
            // The access log writes the path only: Android DELETEs and JSONP calls carry their parameters,
            // passwords and codes included, in the query string (§7.2). The dispatcher decodes the query
            // string itself (`ParameterDecoder`), so the server only checks it (about 12,000 instructions of
            // a signed GET were the server's own parse of it, never read).
            let group = router.group(root, limits: limits, errorRenderer: { error, _ in Self.renderEarly(error) },
                                     logsQuery: false, parsesQuery: false)
            group.on(Self.methods, "*", attempt: { request in dispatcher.attempt(request) }) { request in
                .response(dispatcher.handle(request))
            }
            // Uploads may be larger than other bodies (§2.5): their routes carry the upload limit.
            if files != nil {
                let prefix = root == APITarget.prefix ? "/:project/:env/data" : root == "/data" ? "" : nil
                if let prefix {
                    for pattern in [prefix + "/file/upload", prefix + "/file/upload/:id"] {
                        group.on([.post, .put], pattern, maxBodyBytes: config.maxUploadBytes) { request in
                            .response(dispatcher.handle(request))
                        }
                    }
                }
            }
        }
        let admin = router.group("/_quartet/admin/backbeam", errorRenderer: { error, _ in AdminReplies.early(error) })
        AdminRoutes.register(on: admin, context, serverAdmin: serverAdmin)
    }

    /// Without the app credentials, Facebook and Google tokens issued to any app are accepted (as on
    /// Backbeam, §5.4.6): said once at start-up.
    static func warnAboutUncheckedTokens(_ config: BackbeamConfig, logger: Logger) {
        var unchecked: [String] = []
        if config.social[.facebook]?.appId == nil { unchecked.append("facebook") }
        if config.social[.googleplus]?.clientId == nil { unchecked.append("googleplus") }
        guard config.enabled, !unchecked.isEmpty else { return }
        logger.warning("backbeam social sign-in accepts tokens issued to any app unless the project sets the app credentials",
                       metadata: ["providers": "\(unchecked.joined(separator: ","))",
                                  "keys": "backbeam.social.facebook.appId/appSecret, backbeam.social.googleplus.clientId"])
    }

    /// Answers one request under the Backbeam roots (what the mounts do; tests drive the service with it).
    func handle(_ request: HTTPRequest) -> HTTPResponse { dispatcher.handle(request) }

    static func renderEarly(_ error: any Error) -> HTTPResponse {
        guard let http = error as? HTTPError else {
            return BackbeamResponses.error(BackbeamError(.internalError), callback: nil)
        }
        return BackbeamResponses.early(http)
    }

    /// `quartet backbeam create-project NAME`: creates the project in the database and returns the create
    /// response (the secrets are printed once, by the caller). Throws `ProjectAdmin.Failure` for an invalid
    /// or existing name.
    public static func createProject(name: String, config: JSONObject, storage: Storage) throws -> JSONObject {
        let parsed = try BackbeamConfig(config)
        return try ProjectAdmin.create(name: name, store: SQLiteBackbeamStore(storage: storage),
                                       declared: Set(parsed.projects.keys), now: BackbeamClock.now())
    }
}
