import Logging
import Core
import Storage
import HTTP

/// What every Couch handler shares: configuration, the store, the blob store, credentials and helpers.
final class CouchContext: Sendable {
    let config: CouchConfig
    let store: any CouchStore
    let blobs: BlobStore
    let authenticator: CouchAuthenticator
    /// Server-generated document ids and `/_uuids` (§4.8).
    let ids = SequentialIDs()
    let compactor: Compactor
    let cors: CouchCORS
    /// Waiting `_changes` feeds.
    let changes: ChangesFeeds
    /// `_security` objects and `validate_doc_update` flags for users' requests (§2.8).
    let access: AccessCache
    let logger: Logger
    /// The server's budget for request bodies being decoded (`server.maxDecodingBytes`): gzip-encoded bodies
    /// take what their decoded size needs beyond the charge of their encoded bytes.
    let decodingBudget: DecodingBudget?

    init(config: CouchConfig, store: any CouchStore, blobs: BlobStore, authenticator: CouchAuthenticator,
         bus: ChangeBus, logger: Logger, decodingBudget: DecodingBudget? = nil) {
        self.decodingBudget = decodingBudget
        self.config = config
        self.store = store
        self.blobs = blobs
        self.authenticator = authenticator
        self.compactor = Compactor(store: store, logger: logger)
        self.cors = CouchCORS(origins: config.corsOrigins, credentials: config.corsCredentials)
        self.access = AccessCache(store: store)
        self.changes = ChangesFeeds(bus: bus, store: store, maxPerUser: config.maxFeedsPerUser, logger: logger)
        self.logger = logger
    }
}
