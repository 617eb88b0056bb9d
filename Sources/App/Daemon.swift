import Foundation
import Logging
import Core
import Auth
import HTTP
import Storage
import ParseAPI
import DatastoreAPI
import CouchAPI
import BackbeamAPI

/// The running daemon: storage, the APIs, the router and the HTTP server, wired together.
public final class Daemon: @unchecked Sendable {
    public let config: QuartetConfiguration
    public let logger: Logger
    public let metrics = MetricsRegistry()
    public let lifecycle = Lifecycle()
    private var server: HTTPServer?
    /// The optional second listener serving the Couch API at `/` (`couch.rootListen`).
    private var rootServer: HTTPServer?
    private var couch: CouchService?
    private var opened: StorageBootstrap.Opened?
    private var gcTimer: (any DispatchSourceTimer)?
    private var statisticsTimer: (any DispatchSourceTimer)?
    /// Shared by the main server and the Couch root listener: `server.maxDecodingBytes` bounds them together.
    private let decodingBudget: DecodingBudget

    /// Creates a daemon for `config` (nothing is opened yet).
    public init(config: QuartetConfiguration, logger: Logger) {
        self.config = config
        self.logger = logger
        decodingBudget = DecodingBudget(capacity: config.maxDecodingBytes)
        JSONRequestLimits.configure(maxValues: config.maxJsonValues, maxStringBytes: config.maxJsonStringBytes)
    }

    /// Opens storage, mounts every API and starts listening. Returns the start-up line
    /// ("Quartet <version> listening on http://HOST:PORT").
    public func start() throws -> String {
        do {
            try OutboundTLS.trust(additionalCAFile: config.outboundCaFile)
        } catch {
            throw ConfigError(key: "server.outboundCaFile", reason: "cannot load CA certificates from \(config.outboundCaFile ?? "")")
        }
        let opened = try StorageBootstrap.open(config, logger: logger, observer: StorageMetrics(registry: metrics))
        self.opened = opened
        removeLeftoverTemporaryFiles(opened.blobs)
        let admin = ServerAdmin(settings: config.admin, store: SQLiteAdminAccountStore(storage: opened.storage))
        if let generated = try admin.ensureAccount(configuredPassword: config.admin.password) {
            // Printed once, never logged: the hash is all that is kept.
            StdoutWriter.write("Generated server admin password for '\(admin.name)' (shown once): \(generated)")
        }
        let router = try buildRouter(opened, admin: admin)
        let server = HTTPServer(configuration: serverConfiguration(), router: router, logger: logger,
                                observer: HTTPMetrics(registry: metrics))
        let rootServer = try couchRootServer()
        let hooks = [server.blockingHook] + (rootServer.map { [$0.blockingHook] } ?? [])
        opened.storage.setBlockingHook { for hook in hooks { hook() } }
        let port = try server.start()
        self.server = server
        var rootLine: String?
        if let rootServer {
            let rootPort = try rootServer.start()
            self.rootServer = rootServer
            rootLine = "Couch API at the root of http://\(couch?.config.rootListen?.host ?? ""):\(rootPort)"
        }
        startBlobCollector(opened.blobs)
        startStatisticsRefresher(opened.storage)
        lifecycle.set(.ready)
        // What start-up alone ran need not stay resident (see ExecutablePages).
        ExecutablePages.releaseAfterStartup()
        let scheme = config.tlsCertificate != nil && config.tlsPort == nil ? "https" : "http"
        var line = "\(AppInfo.banner) listening on \(scheme)://\(config.host):\(port)"
        if let tlsPort = config.tlsPort, server.boundPorts.count > 1 {
            line += " and https://\(config.host):\(server.boundPorts.last ?? tlsPort)"
        }
        if let rootLine { line += "\n" + rootLine }
        return line
    }

    /// Before the listeners open, temporary files can only be a killed process's: half-written blobs and spooled
    /// request bodies or multipart parts (the HTTP layer's `quartet-` files in the data directory's `tmp`).
    private func removeLeftoverTemporaryFiles(_ blobs: BlobStore) {
        blobs.removeTemporaryFiles()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: config.tempDirectory)) ?? []
        for name in names where name.hasPrefix("quartet-") {
            try? FileManager.default.removeItem(atPath: (config.tempDirectory as NSString).appendingPathComponent(name))
        }
    }

    /// Mounts the operational endpoints and the APIs. The whole URL surface is visible here.
    func buildRouter(_ opened: StorageBootstrap.Opened, admin: ServerAdmin) throws -> Router {
        let router = Router()
        let cors = CORSPolicy(allowedOrigins: config.corsAllowedOrigins, allowCredentials: config.corsAllowCredentials)
        OperationalRoutes.register(on: router, lifecycle: lifecycle, metrics: metrics, cors: cors,
                                   metricsAccess: MetricsAccess(allowFrom: config.metricsAllowFrom, admin: admin))
        let adminGroup = router.group("/_quartet/admin", errorRenderer: AdminWire.render)
        AdminRoutes.register(on: adminGroup, admin: admin, config: config)

        // The APIs, each under its own mount: Parse at parse.mountPath (/parse), Datastore at
        // /1/datastores and /r5/datastores (+ /_quartet/admin/datastore), Backbeam at /data, /user, /push
        // and /backbeam/<project>/<env> (+ /_quartet/admin/backbeam).
        let parse = try ParseService(config: config.section("parse"), storage: opened.storage, blobs: opened.blobs,
                                     logger: logger, metrics: metrics)
        let lifecycle = self.lifecycle
        parse.setHealthProvider {
            switch lifecycle.state {
            case .ready: return .ok
            case .starting: return .starting
            case .draining: return .error
            }
        }
        parse.mount(on: router)
        let datastore = try DatastoreService(config: config.section("datastore"), storage: opened.storage,
                                             blobs: opened.blobs, logger: logger, metrics: metrics,
                                             serverAdmin: admin)
        datastore.mount(on: router)
        // Couch at couch.mountPath (/couch), plus the host-root /_session its replicator logs in at.
        let couch = try CouchService(config: config.section("couch"), storage: opened.storage, blobs: opened.blobs,
                                     admin: admin, logger: logger, decodingBudget: decodingBudget)
        couch.mount(on: router)
        self.couch = couch
        let backbeam = try BackbeamService(config: config.section("backbeam"), storage: opened.storage, logger: logger,
                                           serverAdmin: admin, tempDirectory: config.tempDirectory, blobs: opened.blobs,
                                           imageDirectory: config.dataDir + "/backbeam-images", metrics: metrics)
        backbeam.mount(on: router)
        return router
    }

    /// The second listener of `couch.rootListen`: its own router holding only the Couch API at `/`, on the
    /// same storage and credentials; plain HTTP, otherwise the main server's settings. Nil when not configured.
    func couchRootServer() throws -> HTTPServer? {
        guard let couch, couch.config.enabled, let listen = couch.config.rootListen else { return nil }
        let router = Router()
        couch.mountAtRoot(on: router)
        var configuration = serverConfiguration()
        configuration.host = listen.host
        configuration.port = listen.port
        configuration.tls = nil
        return HTTPServer(configuration: configuration, router: router, logger: logger,
                          observer: HTTPMetrics(registry: metrics))
    }

    func serverConfiguration() -> ServerConfiguration {
        var c = ServerConfiguration()
        c.host = config.host
        c.port = config.port
        c.ioThreads = config.ioThreads
        c.workerThreads = config.workerThreads
        if let running = config.runningWorkers { c.runningWorkers = running }
        c.maxConnections = config.maxConnections
        c.headerReadTimeout = .seconds(config.headerReadTimeoutSeconds)
        c.bodyReadTimeout = .seconds(config.bodyReadTimeoutSeconds)
        c.minBodyBytesPerSecond = config.minBodyBytesPerSecond
        c.idleTimeout = .seconds(config.idleTimeoutSeconds)
        c.shutdownGrace = .seconds(config.shutdownGraceSeconds)
        c.accessLog = config.accessLog
        c.limits.maxRequestTarget = config.maxRequestTargetBytes
        c.limits.maxHeaderBytes = config.maxHeaderBytes
        c.limits.maxHeaderCount = config.maxHeaderCount
        c.limits.maxBodyBytes = config.maxBodyBytes
        c.limits.inMemoryBodyThreshold = config.inMemoryBodyBytes
        c.decodingBudget = decodingBudget
        c.decodingWait = .milliseconds(config.decodingWaitMilliseconds)
        // The database pages a burst of large writes read through SQLite's memory maps stay in RSS until
        // the maps go, and the connections' page caches stay full (issue 19); each connection maps again
        // and refills its cache at its next read.
        if let storage = opened?.storage { c.afterBurst = { storage.releaseMemory() } }
        c.tempDirectory = config.tempDirectory
        c.serverHeader = "Quartet/\(QuartetVersion.string)"
        if let cert = config.tlsCertificate, let key = config.tlsPrivateKey {
            c.tls = TLSConfiguration(certificatePath: cert, privateKeyPath: key, port: config.tlsPort)
        }
        return c
    }

    /// Deletes unreferenced blobs periodically, off the request path.
    func startBlobCollector(_ blobs: BlobStore) {
        let interval = config.blobGcIntervalSeconds
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "quartet.blob-gc"))
        timer.schedule(deadline: .now() + .seconds(interval), repeating: .seconds(interval))
        let logger = self.logger
        timer.setEventHandler {
            do {
                let removed = try blobs.collectGarbage(olderThan: .seconds(interval))
                if removed > 0 { logger.info("removed \(removed) unreferenced blobs") }
            } catch {
                logger.error("blob garbage collection failed: \(error)")
            }
        }
        timer.resume()
        gcTimer = timer
    }

    /// Refreshes the query planner's statistics at start and then periodically, so that indexes stay
    /// preferred as tables grow (see `Storage.refreshStatistics`). Sampled, so it takes milliseconds.
    func startStatisticsRefresher(_ storage: Storage) {
        let interval = config.statisticsIntervalSeconds
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "quartet.statistics"))
        timer.schedule(deadline: .now(), repeating: .seconds(interval))
        let logger = self.logger
        timer.setEventHandler {
            do { try storage.refreshStatistics() } catch { logger.warning("statistics refresh failed: \(error)") }
        }
        timer.resume()
        statisticsTimer = timer
    }

    /// Graceful stop: `/health` turns 503, the server drains, storage closes; work still running when
    /// `server.shutdownGraceSeconds` have passed is cancelled (see `ShutdownSequence`). Returns at most about
    /// a second after the grace, with how it went.
    @discardableResult
    public func stop() -> StopOutcome {
        lifecycle.set(.draining)
        gcTimer?.cancel()
        statisticsTimer?.cancel()
        let server = self.server
        let rootServer = self.rootServer
        let storage = opened?.storage
        let sequence = ShutdownSequence(grace: .seconds(config.shutdownGraceSeconds), logger: logger)
        return sequence.run(drain: {
            // Both listeners stop accepting first; then each finishes its requests.
            rootServer?.beginDraining()
            let main = server?.shutdown() ?? true
            let root = rootServer?.shutdown() ?? true
            return main && root
        }, close: { storage?.close() }, interrupt: { storage?.interruptAll() })
    }
}
