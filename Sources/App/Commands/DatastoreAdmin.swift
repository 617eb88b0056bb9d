import Logging
import DatastoreAPI

/// `quartet datastore token create|revoke`: each opens (and migrates) the store, does its one change
/// durably, and closes the store again.
public enum DatastoreAdmin {
    /// Creates the user if needed and returns a new token (stored only hashed). Throws for a user name
    /// outside `[A-Za-z0-9._@-]{1,64}`.
    public static func createToken(user: String, config: QuartetConfiguration, logger: Logger) throws -> String {
        let opened = try StorageBootstrap.open(config, logger: logger)
        defer { opened.storage.close() }
        return try DatastoreService.createToken(user: user, storage: opened.storage)
    }

    /// Revokes `token`; false when no live token matches.
    public static func revokeToken(_ token: String, config: QuartetConfiguration, logger: Logger) throws -> Bool {
        let opened = try StorageBootstrap.open(config, logger: logger)
        defer { opened.storage.close() }
        return try DatastoreService.revokeToken(token, storage: opened.storage)
    }
}
