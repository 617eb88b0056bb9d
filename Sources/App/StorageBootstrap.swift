import Foundation
import Logging
import Storage

/// Opens the data directory: creates its folders, opens SQLite with the configured pragmas and applies the
/// migrations. Used by `serve` and `migrate`.
public enum StorageBootstrap {
    /// What was opened.
    public struct Opened: Sendable {
        public let storage: Storage
        public let blobs: BlobStore
        /// Migrations applied by this start (empty when the database was current).
        public let applied: [Migration]
    }

    /// Opens storage under `config.dataDir` and migrates it.
    public static func open(_ config: QuartetConfiguration, logger: Logger,
                            observer: (any StorageObserver)? = nil) throws -> Opened {
        let fm = FileManager.default
        for dir in [config.dataDir, config.blobDirectory, config.tempDirectory] {
            try fm.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                   attributes: [.posixPermissions: 0o700])
        }
        let directory: String
        switch MigrationsLocator.locate(configured: config.migrationsDir) {
        case .success(let d): directory = d
        case .failure(let e): throw e
        }
        let migrations = try Migrator.load(directory: directory)
        var options = StorageOptions(path: config.databasePath)
        options.synchronous = config.synchronous
        options.busyTimeoutMilliseconds = config.busyTimeoutMilliseconds
        options.readerCount = config.readers
        options.heavyReaderCount = config.heavyReaders
        options.heavyReadersPerClient = config.heavyReadersPerClient
        options.heavyReadWaitMilliseconds = config.heavyReadWaitMilliseconds
        options.maxBatchSize = config.maxBatchSize
        options.mmapSizeBytes = config.mmapSizeMiB << 20
        options.walAutocheckpointPages = config.walAutocheckpointPages
        options.walWriteBufferBytes = config.walWriteBufferBytes
        let storage = try Storage(options: options, logger: logger, observer: observer)
        let applied = try Migrator.migrate(storage, migrations: migrations)
        let blobs = try BlobStore(directory: config.blobDirectory, storage: storage)
        return Opened(storage: storage, blobs: blobs, applied: applied)
    }
}
