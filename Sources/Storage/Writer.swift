import Foundation
import Synchronization
import Logging

/// The single writer: a dedicated thread that owns the write connection and runs queued jobs in
/// group commits (see Writer+Batch.swift).
///
/// A dedicated `Thread` rather than a Dispatch queue: the writer blocks in fsync for most of its life,
/// and a blocked pool thread would starve Dispatch's limited worker pool.
final class Writer: @unchecked Sendable {
    /// Guards `pending`, `accepting` and `thread`; signalled when jobs arrive or the writer must stop.
    private let condition = NSCondition()
    private var pending: [WriteJob] = []
    private var accepting = true
    private var thread: Thread?
    /// Set when the writer thread has exited: the connection is then no longer interrupted, so the
    /// checkpoint in `closeConnection` runs undisturbed.
    private var finished = false
    /// Set by `requestMemoryRelease`; the writer thread releases its connection's map and page cache when it
    /// next has nothing to do (between batches, outside any transaction).
    private var memoryReleaseRequested = false
    /// Touched only by the writer thread while it runs, and by `closeConnection` after it has exited.
    let db: Database
    /// Batches committed so far, advanced right after each COMMIT and before its completions run (so before
    /// any of its writes is acknowledged). A reader that keeps one snapshot for several reads
    /// (`Storage.tryReadStatement` within an I/O pass) compares it before each read and starts a new snapshot
    /// when it moved, so it never answers from a snapshot older than an acknowledged write.
    let commits = Atomic<UInt64>(0)
    let maxBatchSize: Int
    let observer: (any StorageObserver)?
    let bus: ChangeBus
    let logger: Logger
    /// Completions and event publication run here, in commit order, so slow callbacks never hold up
    /// the next batch's fsync.
    let completions = DispatchQueue(label: "quartet.storage.completions")
    /// Marks the completion queue so `stop()` can tell it is running on it.
    private static let completionQueueKey = DispatchSpecificKey<Bool>()
    private let exited = DispatchSemaphore(value: 0)

    init(db: Database, maxBatchSize: Int, observer: (any StorageObserver)?, bus: ChangeBus, logger: Logger) {
        self.db = db
        self.maxBatchSize = maxBatchSize
        self.observer = observer
        self.bus = bus
        self.logger = logger
        completions.setSpecific(key: Self.completionQueueKey, value: true)
    }

    /// True inside a completion or change-event handler.
    var isCompletionQueue: Bool {
        DispatchQueue.getSpecific(key: Self.completionQueueKey) == true
    }

    func start() {
        // Weakly: `self.thread` keeps the Thread and the Thread keeps its closure for its whole life, so
        // a strong capture would keep every Writer (and its database) alive after `stop()`.
        let thread = Thread { [weak self] in self?.runLoop() }
        thread.name = "quartet.storage.writer"
        // The writer is on every durable request's critical path.
        thread.qualityOfService = .userInitiated
        condition.lock()
        self.thread = thread
        condition.unlock()
        thread.start()
    }

    /// Queues a job; false (and the job is not queued) after shutdown began.
    func submit(_ job: WriteJob) -> Bool {
        condition.lock()
        guard accepting else {
            condition.unlock()
            return false
        }
        pending.append(job)
        let depth = pending.count
        condition.signal()
        condition.unlock()
        observer?.queueDepthChanged(depth)
        return true
    }

    /// Jobs waiting for the writer (not counting the batch it is running).
    var depth: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending.count
    }

    /// True on the writer thread itself (where blocking on a write would deadlock).
    var isWriterThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let thread else { return false }
        return Thread.current == thread
    }

    /// Stops accepting, lets the writer finish every queued job, and waits for their completions.
    /// Idempotent; returns only once the writer thread has exited.
    func stop() {
        condition.lock()
        let wasAccepting = accepting
        let started = thread != nil
        accepting = false
        condition.broadcast()
        condition.unlock()
        guard wasAccepting else { return }
        if started { exited.wait() }
        // From a completion handler the queue cannot wait for itself; the remaining completions run after.
        if !isCompletionQueue { completions.sync {} }
    }

    /// Checkpoints the WAL into the database file (so the file alone is complete) and closes the
    /// connection. Only after `stop()`.
    func closeConnection() {
        do {
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            logger.warning("WAL checkpoint on close failed", metadata: ["error": "\(error)"])
        }
        db.close()
    }

    /// Asks the writer thread to release its connection's memory map and page cache
    /// (`Database.releaseMemory`) as soon as its queue is empty: the connection is the writer thread's
    /// alone, so it cannot be done from here.
    func requestMemoryRelease() {
        condition.lock()
        memoryReleaseRequested = true
        condition.signal()
        condition.unlock()
    }

    /// Interrupts the statement the writer runs now, if any: the job fails, and with it the batch, which
    /// rolls back (nothing of it was acknowledged). Safe from any thread.
    func interrupt() {
        condition.lock()
        defer { condition.unlock() }
        guard thread != nil, !finished else { return }
        db.interrupt()
    }

    private func runLoop() {
        while let batch = nextBatch() {
            runBatch(batch)
        }
        condition.lock()
        finished = true
        condition.unlock()
        exited.signal()
    }

    /// Waits for work and takes up to `maxBatchSize` jobs; a solo job is taken alone. Nil once stopped
    /// and drained.
    private func nextBatch() -> [WriteJob]? {
        condition.lock()
        while pending.isEmpty && accepting {
            if memoryReleaseRequested {
                // Only when idle: checked once per wait, never per job.
                memoryReleaseRequested = false
                condition.unlock()
                do {
                    try db.releaseMemory()
                } catch {
                    logger.warning("releasing the writer's memory map and page cache failed", metadata: ["error": "\(error)"])
                }
                condition.lock()
                continue
            }
            condition.wait()
        }
        guard !pending.isEmpty else {
            condition.unlock()
            return nil
        }
        var count = 0
        if pending[0].solo {
            count = 1
        } else {
            while count < pending.count, count < maxBatchSize, !pending[count].solo {
                count += 1
            }
        }
        let batch = Array(pending.prefix(count))
        pending.removeFirst(count)
        let depth = pending.count
        condition.unlock()
        observer?.queueDepthChanged(depth)
        return batch
    }
}
