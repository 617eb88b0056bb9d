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
    /// `PRAGMA wal_autocheckpoint` of the write connection: after a commit leaves at least this many pages
    /// in the WAL, the writer copies them into the database file.
    public var walAutocheckpointPages = StorageOptions.defaultWalAutocheckpointPages
    /// Bytes of the write connection's WAL write buffer (`WALWriteBuffer`); 0 writes every frame on its own.
    /// Used only at synchronous FULL or EXTRA.
    public var walWriteBufferBytes = StorageOptions.defaultWalWriteBufferBytes

    /// Read connections that heavy reads (slow queries, see `ReaderShare`) may hold at once; nil for half the
    /// readers. Never more than `readerCount`, never less than 1.
    public var heavyReaderCount: Int?
    /// Heavy reads one client may run at once.
    public var heavyReadersPerClient = 2
    /// How long a heavy read waits for a place before it gives up (its caller answers "busy").
    public var heavyReadWaitMilliseconds = 1000

    /// The heavy-read cap in effect: `heavyReaderCount`, or half the readers, within 1...`readerCount`.
    /// Half: slow queries keep the CPU busy well before they hold every connection on a machine of a few
    /// cores, and the other half answers GETs and indexed queries while they run.
    public var effectiveHeavyReaderCount: Int {
        max(1, min(readerCount, heavyReaderCount ?? readerCount / 2))
    }

    /// 256 MiB: address space only; the pages themselves are the OS page cache, shared by all connections.
    public static let defaultMmapSizeBytes = 256 << 20
    /// 10,000 pages (about 40 MiB of WAL with 4 KiB pages) instead of SQLite's 1,000. A checkpoint writes
    /// each page once however many commits changed it, so a longer interval writes the pages every commit
    /// touches (a table's last leaf, the ends of the time indexes) far fewer times: with 64 writers,
    /// 20-25 % more Parse creates and Datastore deltas per second. The price is a longer pause of the writer
    /// at each checkpoint (write p99 about 12 ms -> 27 ms under that load) and a larger WAL file.
    public static let defaultWalAutocheckpointPages = 10_000
    /// 1 MiB: a group commit of a few hundred pages is one write; a larger one is written in 1 MiB pieces.
    public static let defaultWalWriteBufferBytes = 1 << 20

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
        if let n = heavyReaderCount, n < 1 { throw StorageError.misuse("heavyReaderCount must be at least 1") }
        guard heavyReadersPerClient >= 1 else { throw StorageError.misuse("heavyReadersPerClient must be at least 1") }
        guard heavyReadWaitMilliseconds >= 0 else {
            throw StorageError.misuse("heavyReadWaitMilliseconds must not be negative")
        }
        guard statementCacheSize >= 0 else { throw StorageError.misuse("statementCacheSize must not be negative") }
        guard mmapSizeBytes >= 0 else { throw StorageError.misuse("mmapSizeBytes must not be negative") }
        // 0 would turn automatic checkpoints off and let the WAL grow without bound.
        guard walAutocheckpointPages >= 1 else {
            throw StorageError.misuse("walAutocheckpointPages must be at least 1")
        }
        guard walWriteBufferBytes == 0 || (64 << 10...1 << 30).contains(walWriteBufferBytes) else {
            throw StorageError.misuse("walWriteBufferBytes must be 0 or between 64 KiB and 1 GiB")
        }
    }
}
