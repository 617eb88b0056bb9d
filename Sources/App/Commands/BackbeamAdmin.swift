import Logging
import Core
import BackbeamAPI

/// `quartet backbeam ...`: creating projects in the database, and signing requests for curl.
public enum BackbeamAdmin {
    /// Creates the project (one generated key pair per environment) and returns the create response as
    /// JSON text. Throws with a readable message for an invalid or existing name.
    public static func createProject(name: String, config: QuartetConfiguration, logger: Logger) throws -> String {
        let opened = try StorageBootstrap.open(config, logger: logger)
        defer { opened.storage.close() }
        return try BackbeamService.createProject(name: name, config: config.section("backbeam"),
                                                 storage: opened.storage).serialized()
    }

    /// The query string of a signed request (§3.3): the given parameters plus `key`, a fresh 40-hex
    /// `nonce`, `time` now, and `signature`, percent-encoded for a URL or a form body.
    public static func sign(method: String, path: String, parameters: [(String, String)], key: String,
                            secret: String) -> String {
        RequestSigner.signedQuery(method: method, path: path, parameters: parameters, key: key, secret: secret,
                                  nonce: RandomID.hex(20), time: BackbeamClock.now())
    }
}
