import CSQLite
import Core
import Foundation
import Logging

/// The database: one writer thread with group commit, a pool of read-only connections, and the change
/// bus that announces committed writes.
public final class Storage: Sendable {
    /// Announces what committed write jobs published.
    public let changes: ChangeBus
    /// The options this storage was opened with.
    public let options: StorageOptions
    let logger: Logger
    private let writer: Writer
    let readers: ReaderPool
    /// Connections for single-statement point reads (`readStatement`): the same count, without the memory
    /// map. A connection that starts reading after another one committed drops its page cache and, when
    /// mapped, unmaps the whole file (SQLite guards against a file changed behind the mapping), so under
    /// writes every mapped read pays an munmap, a new mmap and page faults. A lookup of a few pages is
    /// cheaper read with pread; queries over many pages keep the mapped pool (`read`).
    let lookups: ReaderPool
    /// Connections for `tryReadStatement`, taken only when one is free at once, with a busy timeout of 0:
    /// callers that must not wait (an HTTP I/O thread answering a point read itself) get nil instead of a
    /// wait. Two, one per I/O thread of the default server; a third caller at the same moment gets nil.
    /// Unlike `lookups` they keep the memory map: under a read-only load the mapping survives from one
    /// request to the next, so a point read of a page outside the 2 MiB page cache costs no `pread`
    /// (measured: 0.78 `pread` per Couch GET over 20,000 documents before, none after). A commit makes each of
    /// the two remap once at its next read, which is what `lookups` avoids for its larger pool.
    ///
    /// A read transaction costs two `fcntl`: SQLite's WAL read lock, a shared lock on one read-mark byte of
    /// the `-shm` file taken when it starts and dropped when it ends (SQLite skips them only while another
    /// connection of the process holds the same mark). On an I/O thread (`IOPass.isActive`) the connection
    /// is therefore kept for the rest of the event loop's pass and, from the pass's second read on, in one
    /// read transaction, so under load the lock is taken twice per wake-up instead of once per request (and
    /// with one request per wake-up nothing is added), and it is given back before the thread waits for
    /// events again (a snapshot held while the thread sleeps would stop checkpoints from passing it and make
    /// another process's `wal_checkpoint(TRUNCATE)` busy). Before each read of the pass the writer's commit
    /// count is compared with the one read before the snapshot was taken; when it moved, the snapshot is
    /// ended and a new one taken, so a read never answers from a snapshot older than a write this process
    /// acknowledged. A commit by another process (the `sqlite3` shell) is seen at most one pass late.
    /// `locking_mode=EXCLUSIVE` would save the locks altogether and lock out backups and the shell.
    let immediate: ReaderPool
    static let immediateReaderCount = 2
    private let closed = Locked(false)
    let blockingHook = BlockingHook()
    /// The share of the readers that slow reads may hold (see `ReaderShare`); callers that classify their
    /// reads take a place before a heavy one.
    public let heavyReads: ReaderShare

    /// Opens (creating if needed) the database. Pragmas in order on every connection: busy_timeout,
    /// journal_mode=WAL, synchronous, foreign_keys=ON; readers are opened read-only (and query_only).
    public init(options: StorageOptions, logger: Logger, observer: (any StorageObserver)? = nil) throws {
        try options.validate()
        guard sqlite3_threadsafe() != 0 else {
            throw StorageError.misuse("libsqlite3 was built single-threaded (SQLITE_THREADSAFE=0)")
        }
        self.options = options
        self.logger = logger
        let bus = ChangeBus()
        changes = bus
        // The writer connection first: it creates the file and switches it to WAL, which read-only
        // connections cannot do. Its WAL writes go through the write buffer when the mode allows it.
        let writeConnection = try Database(options: options, vfs: try WALWriteBuffer.vfsName(for: options))
        readers = try ReaderPool(options: options)
        var lookupOptions = options
        lookupOptions.mmapSizeBytes = 0
        lookups = try ReaderPool(options: lookupOptions)
        var immediateOptions = options
        immediateOptions.readerCount = Self.immediateReaderCount
        immediateOptions.busyTimeoutMilliseconds = 0
        immediate = try ReaderPool(options: immediateOptions)
        heavyReads = ReaderShare(options: options, blockingHook: blockingHook)
        writer = Writer(db: writeConnection, maxBatchSize: options.maxBatchSize, observer: observer,
                        bus: bus, logger: logger)
        writer.start()
        logger.info("storage opened", metadata: [
            "path": "\(options.path)", "synchronous": "\(options.synchronous.uppercased())",
            "readers": "\(options.readerCount)",
        ])
    }

    deinit { close() }

    /// Installs the function a thread calls right before it blocks in `writeAndWait` (the HTTP server's
    /// `blockingHook`, so that another worker takes over its queue). Waiting for a read connection does
    /// not call it (see `ReaderPool.withConnection`).
    public func setBlockingHook(_ hook: @escaping @Sendable () -> Void) {
        blockingHook.set(hook)
    }

    /// Borrow a read-only connection from the pool (blocks while all are busy) on the calling thread;
    /// `body` runs in one read transaction, so all its statements see the same committed snapshot.
    /// Do not nest `read` calls on one thread: with every connection borrowed the inner call would wait
    /// for itself.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try readers.withConnection { db in try db.transaction { try body(db) } }
    }

    /// Like `read`, but without a surrounding transaction: each statement of `body` sees the newest
    /// committed snapshot when it starts. Only for bodies that run one statement (a single statement always
    /// reads one consistent snapshot); it saves the `BEGIN` and `COMMIT` of `read`.
    public func readStatement<T>(_ body: (Database) throws -> T) throws -> T {
        try lookups.withConnection { db in try body(db) }
    }

    /// Like `readStatement`, for callers that must not wait: nil when no connection of its own small pool
    /// is free at once, or when SQLite would have to wait for a lock (`SQLITE_BUSY`; those connections do
    /// not retry). The body must read a bounded amount (a point lookup): the caller's thread does nothing
    /// else meanwhile. Other errors are thrown.
    ///
    /// On an event loop's thread (`IOPass.isActive`) the connection is kept until the loop's pass ends (see
    /// `immediate`): the pass's first read runs as its own statement, and the later ones in one read
    /// transaction, which see one snapshot unless this process committed in between, when the next read
    /// takes a new one.
    public func tryReadStatement<T>(_ body: (Database) throws -> T) throws -> T? {
        guard IOPass.isActive else {
            do {
                return try immediate.withConnectionIfFree { db in try body(db) }
            } catch StorageError.busy {
                return nil
            }
        }
        if let held = IOPass.value(for: self) as? PassRead {
            return try readKept(held, body)
        }
        guard let db = try immediate.tryCheckOut() else { return nil }
        let value: T
        do {
            // The pass's first read runs as its own statement, as off the pass: with one request per wake-up
            // (a light load) a transaction would only add its BEGIN and COMMIT. A second read begins one.
            value = try body(db)
        } catch StorageError.busy {
            immediate.checkIn(db)
            return nil
        } catch {
            immediate.checkIn(db)
            throw error
        }
        // A nested call (a body that reads through this method again) finds the outer one's connection not yet
        // kept and takes another; only the first to finish keeps its own.
        if !IOPass.keep(PassRead(db: db, pool: immediate), for: self) {
            immediate.checkIn(db)
        }
        return value
    }

    /// A later read of the pass on the connection `held` keeps: in its transaction while this process has not
    /// committed since the snapshot, else in a new one. Any error gives the connection back.
    private func readKept<T>(_ held: PassRead, _ body: (Database) throws -> T) throws -> T? {
        do {
            // Read before the snapshot is taken: a commit after this load makes a later read start over, and a
            // commit before it is in the snapshot.
            let commits = writer.commits.load(ordering: .sequentiallyConsistent)
            if held.inTransaction && held.commits != commits {
                held.inTransaction = false
                try held.db.run("COMMIT")
            }
            if !held.inTransaction {
                // A deferred BEGIN: the snapshot is taken by the body's first statement, after `commits`.
                try held.db.run("BEGIN")
                held.inTransaction = true
                held.commits = commits
            }
            return try body(held.db)
        } catch {
            IOPass.forget(self)
            immediate.checkIn(held.db)
            if case StorageError.busy = error { return nil }
            throw error
        }
    }

    /// Releases the memory maps and page caches of the connections not in use now: the readers' at once,
    /// the writer's as soon as it has no job. The database pages a connection read through its map count in
    /// the process's RSS (file-backed) until it unmaps; after a burst of large writes that is most of RSS
    /// (issue 19). Each connection maps again lazily at its next read and fills its cache again, so this is
    /// for moments of quiet (the HTTP server's end of a burst of large bodies), not for every request. Safe
    /// from any thread; a no-op after `close()`.
    public func releaseMemory() {
        guard !closed.withLock({ $0 }) else { return }
        readers.releaseMemory()
        lookups.releaseMemory()
        immediate.releaseMemory()
        writer.requestMemoryRelease()
    }

    /// Group commit: the job runs on the writer thread inside its own SAVEPOINT of a shared transaction;
    /// `completion` runs after the batch COMMIT is durable (or with the job's error; a failing job rolls
    /// back only its savepoint). Never blocks the caller. Completions run in commit order on one serial
    /// queue, so they must be quick and must not wait for another write.
    public func write<T: Sendable>(_ job: @escaping @Sendable (WriteContext) throws -> T,
                                   completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        submit(WriteJob(job, completion: completion), orFail: completion)
    }

    /// Convenience: blocks the calling (worker) thread until the job is durable; returns its value or
    /// throws its error. Throws `StorageError.misuse` when called from inside a write job.
    @discardableResult
    public func writeAndWait<T: Sendable>(_ job: @escaping @Sendable (WriteContext) throws -> T) throws -> T {
        try writeAndWait(solo: false, job)
    }

    /// Like `writeAndWait`, but `solo` jobs commit in a transaction of their own (not batched).
    @discardableResult
    func writeAndWait<T: Sendable>(solo: Bool, _ job: @escaping @Sendable (WriteContext) throws -> T) throws -> T {
        guard !writer.isWriterThread else {
            throw StorageError.misuse("writeAndWait called from a write job (it would wait for itself)")
        }
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<T, any Error>?>(nil)
        let completion: @Sendable (Result<T, any Error>) -> Void = { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        submit(WriteJob(solo: solo, job, completion: completion), orFail: completion)
        blockingHook.willBlock()
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw StorageError.closed }
        return try outcome.get()
    }

    /// Write jobs waiting for the writer right now (not counting the batch being committed); for
    /// health checks and benchmarks. The observer's `queueDepthChanged` reports every change.
    public var pendingWrites: Int { writer.depth }

    private func submit<T>(_ job: WriteJob, orFail completion: @Sendable (Result<T, any Error>) -> Void) {
        if !writer.submit(job) {
            completion(.failure(StorageError.closed))
        }
    }

    /// Cancels the work running on the database now: every statement in progress on a read connection or
    /// the writer fails with `StorageError.interrupted` at its next step (the writer's batch rolls back;
    /// nothing of it was acknowledged). Statements started later run normally, so a shutdown that waits for
    /// `close()` calls this repeatedly. Work between statements (Swift code holding a connection) is not
    /// reached. Safe from any thread, also while `close()` waits.
    public func interruptAll() {
        readers.interruptAll()
        lookups.interruptAll()
        immediate.interruptAll()
        writer.interrupt()
    }

    /// Drains the writer (every queued job commits or fails and is completed), closes the readers, then
    /// checkpoints the WAL and closes the write connection. Idempotent; later writes fail with `.closed`.
    /// Must not be called from inside a write job (ignored there) or while this thread holds a reader.
    public func close() {
        guard !writer.isWriterThread else {
            // The writer cannot wait for itself to drain; the caller's job would never finish.
            logger.error("Storage.close() called from inside a write job; ignored")
            return
        }
        let first = closed.withLock { wasClosed -> Bool in
            defer { wasClosed = true }
            return !wasClosed
        }
        guard first else { return }
        writer.stop()
        readers.close()
        lookups.close()
        immediate.close()
        // Last, with no reader holding a snapshot, so the checkpoint can copy and truncate the whole WAL.
        writer.closeConnection()
        logger.info("storage closed", metadata: ["path": "\(options.path)"])
    }
}
