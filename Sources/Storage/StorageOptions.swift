/// How a `Storage` opens and runs its database.
public struct StorageOptions: Sendable {
    /// Path of the database file (created when missing; its directory must exist). WAL needs a real file,
    /// so ":memory:" is not accepted.
    public var path: String
    /// `PRAGMA synchronous`: FULL (default: a commit survives power loss), NORMAL, OFF or EXTRA.
    public var synchronous = "FULL"
    /// How long a connection waits on another's lock before SQLITE_BUSY.
    public var busyTimeoutMilliseconds = 5000
    /// Read-only connections in the reader pool.
    public var readerCount = 8
    /// Most jobs one group commit takes from the queue.
    public var maxBatchSize = 512
    /// Prepared statements cached per connection.
    public var statementCacheSize = 64
    /// `PRAGMA mmap_size` of every connection: how much of the database file is read through a shared
    /// memory mapping rather than copied into each connection's page cache; 0 turns mapping off.
    public var mmapSizeBytes = StorageOptions.defaultMmapSizeBytes

    /// 256 MiB: address space only; the pages themselves are the OS page cache, shared by all connections.
    public static let defaultMmapSizeBytes = 256 << 20

    /// Options for the database at `path`; every setting not given keeps its default.
    public init(path: String, synchronous: String = "FULL", busyTimeoutMilliseconds: Int = 5000,
                readerCount: Int = 8, maxBatchSize: Int = 512, statementCacheSize: Int = 64) {
        self.path = path
        self.synchronous = synchronous
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.readerCount = readerCount
        self.maxBatchSize = maxBatchSize
        self.statementCacheSize = statementCacheSize
    }

    /// The accepted values of `synchronous`.
    public static let synchronousModes: Set<String> = ["FULL", "NORMAL", "OFF", "EXTRA"]

    /// Throws `StorageError.misuse` naming the first invalid setting.
    public func validate() throws {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else {
            throw StorageError.misuse("storage path must be a file path, got '\(path)'")
        }
        guard Self.synchronousModes.contains(synchronous.uppercased()) else {
            throw StorageError.misuse("synchronous must be FULL, NORMAL, OFF or EXTRA, got '\(synchronous)'")
        }
        guard busyTimeoutMilliseconds >= 0 else {
            throw StorageError.misuse("busyTimeoutMilliseconds must not be negative")
        }
        guard readerCount >= 1 else { throw StorageError.misuse("readerCount must be at least 1") }
        guard maxBatchSize >= 1 else { throw StorageError.misuse("maxBatchSize must be at least 1") }
        guard statementCacheSize >= 0 else { throw StorageError.misuse("statementCacheSize must not be negative") }
        guard mmapSizeBytes >= 0 else { throw StorageError.misuse("mmapSizeBytes must not be negative") }
    }
}
