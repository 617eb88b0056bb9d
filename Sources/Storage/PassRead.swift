import Core

/// The connection an I/O thread keeps for the rest of its event loop's pass (`Storage.tryReadStatement`):
/// after the pass's first read, in one read transaction, with the writer's commit count read before that
/// transaction's snapshot. Touched only by the thread that keeps it.
final class PassRead: PassResource {
    let db: Database
    let pool: ReaderPool
    /// Whether the connection is inside the pass's read transaction (from the pass's second read on).
    var inTransaction = false
    /// The writer's commit count read before the transaction's snapshot was taken.
    var commits: UInt64 = 0

    init(db: Database, pool: ReaderPool) {
        self.db = db
        self.pool = pool
    }

    /// Ends the transaction, if any, and gives the connection back to its pool.
    func endPass() {
        // COMMIT is a cached statement; the check-in's own ROLLBACK (for a body that threw) compiles anew.
        if inTransaction { _ = try? db.run("COMMIT") }
        pool.checkIn(db)
    }
}
