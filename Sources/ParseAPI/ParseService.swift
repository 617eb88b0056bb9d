import Foundation
import Core
import HTTP
import Logging
import Storage

/// The Parse-Server-compatible REST API (see the Parse specification): configuration, first-start keys
/// and the route group mounted at `parse.mountPath` (default `/parse`).
public final class ParseService: Sendable {
    let app: ParseApp

    /// Validates the `parse` configuration section (throws `ConfigError` naming the key), and on first start
    /// generates the application id and master key when they are not configured: they are printed once to
    /// standard output and persisted (the master key only as a SHA-256 digest).
    public init(config: JSONObject, storage: Storage, blobs: BlobStore, logger: Logger, metrics: MetricsRegistry) throws {
        let parsed = try ParseConfig(section: config)
        let store = SQLiteParseStore(storage: storage)
        let keys = try FirstStartKeys.resolve(config: parsed, store: store)
        app = ParseApp(config: parsed, store: store, blobs: blobs, logger: logger, metrics: metrics,
                       appId: keys.appId, masterKeyDigest: keys.masterKeyDigest)
    }

    /// The application id in effect (configured or generated).
    public var appId: String { app.appId }

    /// The mount path in effect.
    public var mountPath: String { app.config.mountPath }

    /// Whether `parse.enabled` is true.
    public var isEnabled: Bool { app.config.enabled }

    /// Lets the daemon drive `<mount>/health`: `.starting` answers 503 `{"status":"starting"}` with
    /// `Retry-After: 1`, `.error` answers 503 `{"status":"error"}` (start-up failure or shutdown). Without a
    /// provider the endpoint answers 200 `{"status":"ok"}` once routes are mounted.
    public func setHealthProvider(_ provider: @escaping @Sendable () -> ParseHealthState) {
        app.health.withLock { $0 = provider }
    }

    /// Registers the Parse API under the mount path and each additional mount path. All routing below the
    /// mount happens in the API's own route table (see `ParseRoutes`), after body parsing and the
    /// `_method` override, as Parse's processing order requires.
    public func mount(on router: Router) {
        guard app.config.enabled else { return }
        let app = self.app
        var limits = Limits()
        limits.maxBodyBytes = app.config.maxUploadSize
        let methods: [HTTPMethod] = [.get, .head, .post, .put, .delete, .options, .patch]
        for mount in [app.config.mountPath] + app.config.additionalMountPaths {
            let group = router.group(mount, limits: limits, errorRenderer: { error, request in
                let mapped = app.mapError(error)
                return app.writer.error(mapped, origin: request?.headers["Origin"])
            })
            group.on(methods, "*", maxBodyBytes: app.config.maxUploadSize) { request in
                app.reply(to: request, mount: mount)
            }
        }
    }
}

/// What `<mount>/health` reports (Parse-Swift 6.x decodes exactly these values).
public enum ParseHealthState: String, Sendable {
    case ok, starting, error
}

/// First-start generation of the application id and master key (spec §1.4).
enum FirstStartKeys {
    struct Keys { let appId: String; let masterKeyDigest: [UInt8] }

    static func resolve(config: ParseConfig, store: any ParseStore) throws -> Keys {
        let stored = try store.read { tx in (try tx.setting("appId"), try tx.setting("masterKeyDigest")) }
        var appId = config.appId ?? stored.0
        var digest: [UInt8]? = config.masterKey.map { Crypto.sha256(Array($0.utf8)) } ?? stored.1.flatMap(Hex.decode)
        var generated: [(String, String)] = []
        if appId == nil {
            let id = RandomID.alphanumeric(20)
            appId = id
            generated.append(("appId", id))
        }
        if digest == nil {
            let key = RandomID.alphanumeric(40)
            digest = Crypto.sha256(Array(key.utf8))
            generated.append(("masterKey", key))
        }
        guard let finalId = appId, let finalDigest = digest else { throw ParseError.internalError }
        if !generated.isEmpty {
            let persistId = config.appId == nil ? finalId : nil
            let persistDigest = config.masterKey == nil ? Hex.encode(finalDigest) : nil
            try store.write { tx in
                if let persistId { try tx.setSetting("appId", persistId) }
                if let persistDigest { try tx.setSetting("masterKeyDigest", persistDigest) }
            }
            // Printed once, to standard output only (never to the log).
            for (name, value) in generated {
                // Written straight to the descriptor: stdio buffering would hold it back when stdout is a pipe.
                FileHandle.standardOutput.write(Data("Parse \(name) (generated, shown once): \(value)\n".utf8))
            }
        }
        return Keys(appId: finalId, masterKeyDigest: finalDigest)
    }
}
