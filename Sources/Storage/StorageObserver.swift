/// Hooks for metrics on the write path. Called from the writer thread: implementations must be quick.
public protocol StorageObserver: Sendable {
    /// A group commit finished: `jobs` jobs in the batch, `seconds` from BEGIN to the end of COMMIT.
    func batchCommitted(jobs: Int, seconds: Double)
    /// The number of jobs waiting for the writer changed.
    func queueDepthChanged(_ depth: Int)
    /// BEGIN or COMMIT met SQLITE_BUSY (another process holds the lock) and will be retried.
    func busyRetry()
    /// One job's body ran: for `seconds` it held the writer thread, which no other job can use meanwhile;
    /// `failed` when it threw. The batch's BEGIN and COMMIT are not included (see `batchCommitted`).
    func jobFinished(seconds: Double, failed: Bool)
}

extension StorageObserver {
    /// Observers that do not track jobs ignore them.
    public func jobFinished(seconds: Double, failed: Bool) {}
}
