import CSQLite

/// One SQLite connection; confined to one thread at a time (not Sendable). Statements are cached by SQL text.
///
/// Connections are opened with SQLITE_OPEN_NOMUTEX: SQLite's own per-connection mutex is redundant
/// because Storage never lets two threads use one connection at once (the writer thread owns the write
/// connection, readers are checked out of a pool).
public final class Database {
    let handle: OpaquePointer
    let statementCache: StatementCache
    private var savepointCounter = 0
    private(set) var isClosed = false
    /// The file this connection is open on.
    public let path: String
    /// True for connections opened with SQLITE_OPEN_READONLY.
    public let isReadOnly: Bool
    /// The `PRAGMA mmap_size` this connection was opened with (0: it reads with pread only).
    let mmapSizeBytes: Int
    /// Objects other modules keep with this connection, one per type (`attachment(_:make:)`).
    private var attachments: [ObjectIdentifier: AnyObject] = [:]

    /// Opens (creating it when writable and missing) the database at `path` and applies the connection
    /// pragmas, in this order: busy_timeout, journal_mode=WAL, synchronous, foreign_keys=ON, mmap_size,
    /// then query_only=1 for read-only connections and wal_autocheckpoint for writable ones. `vfs` names a
    /// registered SQLite VFS (nil: the default one).
    public init(path: String, readOnly: Bool = false, synchronous: String = "FULL",
                busyTimeoutMilliseconds: Int = 5000, statementCacheSize: Int = 64,
                mmapSizeBytes: Int = StorageOptions.defaultMmapSizeBytes,
                walAutocheckpointPages: Int = StorageOptions.defaultWalAutocheckpointPages,
                vfs: String? = nil) throws {
        guard sqlite3_threadsafe() != 0 else {
            throw StorageError.misuse("libsqlite3 was built single-threaded (SQLITE_THREADSAFE=0)")
        }
        _ = Database.libraryConfigured
        let mode = synchronous.uppercased()
        guard StorageOptions.synchronousModes.contains(mode) else {
            throw StorageError.misuse("synchronous must be FULL, NORMAL, OFF or EXTRA, got '\(synchronous)'")
        }
        var flags = SQLITE_OPEN_NOMUTEX
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var pointer: OpaquePointer?
        let rc = sqlite3_open_v2(path, &pointer, flags, vfs)
        guard rc == SQLITE_OK, let opened = pointer else {
            let error = StorageError.from(code: rc, connection: pointer)
            // open_v2 may hand back a handle even on failure; it must still be closed.
            sqlite3_close_v2(pointer)
            throw error
        }
        handle = opened
        statementCache = StatementCache(capacity: statementCacheSize)
        self.path = path
        isReadOnly = readOnly
        self.mmapSizeBytes = max(0, mmapSizeBytes)
        sqlite3_extended_result_codes(opened, 1)
        do {
            try configure(synchronous: mode, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                          mmapSizeBytes: max(0, mmapSizeBytes), walAutocheckpointPages: max(1, walAutocheckpointPages))
        } catch {
            close()
            throw error
        }
    }

    /// Convenience: opens `options.path` with the options' pragmas and cache size.
    public convenience init(options: StorageOptions, readOnly: Bool = false, vfs: String? = nil) throws {
        try self.init(path: options.path, readOnly: readOnly, synchronous: options.synchronous,
                      busyTimeoutMilliseconds: options.busyTimeoutMilliseconds,
                      statementCacheSize: options.statementCacheSize, mmapSizeBytes: options.mmapSizeBytes,
                      walAutocheckpointPages: options.walAutocheckpointPages, vfs: vfs)
    }

    deinit { close() }

    /// Process-wide SQLite settings, applied once before the first connection initialises the library.
    /// Allocation statistics are off: with them on, each of the dozens of allocations SQLite makes per
    /// statement takes a process-wide mutex (about 3,000 instructions of a Parse create on the writer).
    /// Nothing reads those statistics.
    static let libraryConfigured: Bool = {
        quartet_sqlite3_config_memstatus(0) == SQLITE_OK
    }()

    /// The pragmas, in the order that matters: the busy timeout first so the WAL switch itself waits on
    /// other connections instead of failing; WAL before synchronous because the meaning of NORMAL depends
    /// on the journal mode; foreign keys last (it is per connection and a no-op inside a transaction).
    private func configure(synchronous: String, busyTimeoutMilliseconds: Int, mmapSizeBytes: Int,
                           walAutocheckpointPages: Int) throws {
        try execute("PRAGMA busy_timeout = \(busyTimeoutMilliseconds)")
        let journal = try queryOne("PRAGMA journal_mode = WAL")?[0].string?.lowercased()
        guard journal == "wal" else {
            throw StorageError.misuse("journal_mode=WAL not in effect on \(path) (got \(journal ?? "nothing"))")
        }
        try execute("PRAGMA synchronous = \(synchronous)")
        try execute("PRAGMA foreign_keys = ON")
        // Pages are then read from the shared OS page cache in place instead of being copied by pread(2)
        // into each connection's own 2 MiB cache: a query touching rows scattered over a large table
        // spent about a tenth of its time in pread before. SQLite caps the value at its compile-time
        // maximum (2 GiB in Debian's build).
        try execute("PRAGMA mmap_size = \(mmapSizeBytes)")
        if isReadOnly {
            try execute("PRAGMA query_only = 1")
        } else {
            // Only a connection that commits runs automatic checkpoints (see StorageOptions).
            try execute("PRAGMA wal_autocheckpoint = \(walAutocheckpointPages)")
        }
    }

    /// Unmaps the database file from this connection's memory map and lets the next read map it again, and
    /// frees the unused pages of its page cache.
    ///
    /// The pages a connection has read through the map stay in the process's resident set (file-backed)
    /// until the map goes: after a burst of large writes that is the better part of RSS (issue 19). SQLite
    /// unmaps when `mmap_size` changes and maps lazily on the next read, so setting it to 0 and back
    /// releases the map without closing the connection or its cached statements. The page cache (up to
    /// `cache_size`, 2 MiB) is heap memory the connection would otherwise keep for good. A no-op inside a
    /// transaction (a statement could still hold a mapped page; the caller should not hold the connection
    /// in that state anyway).
    func releaseMemory() throws {
        guard !isClosed, !isInTransaction else { return }
        if mmapSizeBytes > 0 {
            try execute("PRAGMA mmap_size = 0")
            try execute("PRAGMA mmap_size = \(mmapSizeBytes)")
        }
        _ = sqlite3_db_release_memory(handle)
    }

    /// Bytes of heap memory this connection's page cache holds now (`SQLITE_DBSTATUS_CACHE_USED`).
    var pageCacheBytes: Int {
        var current: Int32 = 0
        var highest: Int32 = 0
        guard !isClosed, sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0) == SQLITE_OK else {
            return 0
        }
        return Int(current)
    }

    /// Closes the connection (finalizing cached statements). Further calls throw `StorageError.closed`.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        statementCache.removeAll()
        // close_v2 defers the real close until any statement still alive is finalized.
        sqlite3_close_v2(handle)
    }

    /// Makes the statements running on this connection fail with `StorageError.interrupted` at their next
    /// step (`sqlite3_interrupt`); a no-op when none runs. The one method that may be called from another
    /// thread than the one using the connection, and only while the connection is open: the caller must
    /// know it is not being closed meanwhile.
    func interrupt() {
        sqlite3_interrupt(handle)
    }

    /// Runs one or more `;`-separated statements that take no arguments (schema, pragmas, migrations).
    public func execute(_ sql: String) throws {
        try checkOpen()
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        let text = message.map { String(cString: $0) }
        sqlite3_free(message)
        guard rc == SQLITE_OK else {
            throw StorageError.from(code: rc, message: text ?? errorMessage)
        }
    }

    /// Runs one statement with positional `?` arguments; returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ args: [SQLValue] = []) throws -> Int {
        try withStatement(sql, args) { statement in
            while try statement.step(connection: handle) {}
            return Int(sqlite3_changes64(handle))
        }
    }

    /// Runs one query and collects every row.
    public func query(_ sql: String, _ args: [SQLValue] = []) throws -> [Row] {
        var rows: [Row] = []
        try forEach(sql, args) { rows.append($0); return true }
        return rows
    }

    /// The first row of a query, or nil when it returns none.
    public func queryOne(_ sql: String, _ args: [SQLValue] = []) throws -> Row? {
        var first: Row?
        try forEach(sql, args) { first = $0; return false }
        return first
    }

    /// Streams rows to `body` one at a time; returning false from `body` stops early.
    public func forEach(_ sql: String, _ args: [SQLValue] = [], _ body: (Row) throws -> Bool) throws {
        try withStatement(sql, args) { statement in
            while try statement.step(connection: handle) {
                guard try body(statement.currentRow()) else { break }
            }
        }
    }

    /// Rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the most recent INSERT/UPDATE/DELETE on this connection.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True while a transaction (or savepoint) is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Prepared statements currently cached (for tests and diagnostics).
    public var cachedStatementCount: Int { statementCache.count }

    /// The object of type `T` kept with this connection, made by `make` on first use: for facts about this
    /// connection's snapshots (a total read at one `data_version`) that would otherwise sit in a map shared
    /// by every thread, behind a lock. Like everything else here it is touched only by the thread holding
    /// the connection, so it needs no lock of its own; it lives as long as the connection.
    public func attachment<T: AnyObject>(_ type: T.Type, make: () -> T) -> T {
        let key = ObjectIdentifier(type)
        if let kept = attachments[key] as? T { return kept }
        let made = make()
        attachments[key] = made
        return made
    }

    /// Runs `body` inside one deferred transaction (BEGIN ... COMMIT, ROLLBACK when it throws), so every
    /// statement of `body` reads the same snapshot. On a read connection this is also cheaper than
    /// autocommit: each autocommit statement takes and drops the WAL read lock (shared-memory `fcntl`
    /// calls) on its own. BEGIN and COMMIT are cached statements.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN")
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            // A failed statement (or COMMIT) may already have ended the transaction.
            if isInTransaction { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` inside a SAVEPOINT: released when it returns, rolled back (then released) when it throws.
    /// Savepoints nest; each gets a unique name on this connection, so `name` is only a readable prefix.
    @discardableResult
    public func savepoint<T>(_ name: String = "sp", _ body: () throws -> T) throws -> T {
        try checkOpen()
        savepointCounter &+= 1
        let unique = "\(Self.identifier(from: name))_\(savepointCounter)"
        try execute("SAVEPOINT \(unique)")
        let value: T
        do {
            value = try body()
        } catch {
            // If SQLite already rolled the whole transaction back (e.g. after SQLITE_FULL) the savepoint is
            // gone; the body's error is the one worth reporting, so a failure here is not.
            try? execute("ROLLBACK TO \(unique)")
            try? execute("RELEASE \(unique)")
            throw error
        }
        do {
            try execute("RELEASE \(unique)")
        } catch {
            try? execute("ROLLBACK TO \(unique)")
            try? execute("RELEASE \(unique)")
            throw error
        }
        return value
    }

    /// Keeps only identifier characters so a caller's name can never inject SQL.
    private static func identifier(from name: String) -> String {
        let kept = name.unicodeScalars.filter { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_" }
        let text = String(String.UnicodeScalarView(kept))
        guard let first = text.unicodeScalars.first, !("0"..."9").contains(first) else { return "sp" + text }
        return text
    }

    var errorMessage: String {
        sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown error"
    }

    private func checkOpen() throws {
        if isClosed { throw StorageError.closed }
    }
}
