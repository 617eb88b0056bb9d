/// Hooks for metrics on the write path. Called from the writer thread: implementations must be quick.
public protocol StorageObserver: Sendable {
    /// A group commit finished: `jobs` jobs in the batch, `seconds` from BEGIN to the end of COMMIT.
    func batchCommitted(jobs: Int, seconds: Double)
    /// The number of jobs waiting for the writer changed.
    func queueDepthChanged(_ depth: Int)
    /// BEGIN or COMMIT met SQLITE_BUSY (another process holds the lock) and will be retried.
    func busyRetry()
}
