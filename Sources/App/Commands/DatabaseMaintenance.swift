import Logging
import Storage

/// `quartet migrate` and `quartet backup`, and the admin API's backup.
public enum DatabaseMaintenance {
    /// Opens the data directory, applies the pending migrations and closes it again. Returns the
    /// migrations applied (empty when the database was up to date).
    public static func migrate(_ config: QuartetConfiguration, logger: Logger) throws -> [(version: Int, name: String)] {
        let opened = try StorageBootstrap.open(config, logger: logger)
        defer { opened.storage.close() }
        return opened.applied.map { ($0.version, $0.name) }
    }

    /// Online backup of the database (SQLite's backup API, so the daemon may keep serving) and the blobs
    /// into `destination`, which must not already hold a backup. `progress` receives (remaining, total)
    /// pages after each step. Returns the number of pages copied.
    @discardableResult
    public static func backup(_ config: QuartetConfiguration, to destination: String,
                              progress: (_ remaining: Int, _ total: Int) -> Void = { _, _ in }) throws -> Int {
        var pages = 0
        try Backup.run(databasePath: config.databasePath, blobDirectory: config.blobDirectory,
                       destination: destination) { remaining, total in
            pages = total
            progress(remaining, total)
        }
        return pages
    }
}
