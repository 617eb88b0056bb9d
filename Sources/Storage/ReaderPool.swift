import Foundation

/// A fixed set of read-only connections handed out one caller at a time.
///
/// Under WAL each reader sees the last committed snapshot and never blocks the writer, so the pool
/// size bounds read concurrency only.
final class ReaderPool: @unchecked Sendable {
    /// Guards `idle` and `closed`; signalled when a connection comes back.
    private let condition = NSCondition()
    private var idle: [Database]
    /// Every open connection, idle or borrowed, for `interruptAll`: one leaves this list (under the lock)
    /// before it is closed, so an interrupt never reaches a closed connection.
    private var open: [Database]
    private let total: Int
    private var closed = false
    private let options: StorageOptions
    /// Connections opened before `reloadStatistics()` are replaced when they come back: SQLite loads
    /// `sqlite_stat1` only when a connection (re)reads the schema, and a read-only connection cannot
    /// ask for it again.
    private var generation = 0
    private var generations: [ObjectIdentifier: Int] = [:]

    /// Opens `options.readerCount` read-only connections (after the writer, which created the WAL).
    init(options: StorageOptions) throws {
        var connections: [Database] = []
        for _ in 0..<options.readerCount {
            connections.append(try Database(options: options, readOnly: true))
        }
        idle = connections
        open = connections
        total = connections.count
        self.options = options
    }

    /// Makes every connection pick up new planner statistics: idle ones are reopened now, borrowed ones
    /// when they are checked in.
    func reloadStatistics() {
        condition.lock()
        generation += 1
        let stale = idle
        idle.removeAll()
        condition.unlock()
        let fresh = stale.map(renewed)
        condition.lock()
        idle.append(contentsOf: fresh)
        condition.broadcast()
        condition.unlock()
    }

    /// A connection of the current generation in place of `db` (the old one if reopening fails).
    private func renewed(_ db: Database) -> Database {
        guard let replacement = try? Database(options: options, readOnly: true) else { return db }
        condition.lock()
        generations[ObjectIdentifier(db)] = nil
        generations[ObjectIdentifier(replacement)] = generation
        open.removeAll { $0 === db }
        open.append(replacement)
        condition.unlock()
        db.close()
        return replacement
    }

    /// Borrows a connection for `body`, waiting while all are in use. The wait is not announced through the
    /// storage's blocking hook: connections are held by threads running SQLite on the CPU (the database is
    /// in the page cache), so another worker woken for the queue would only wait here as well. Measured
    /// with 64 clients of GET by id on two cores, announcing it put about 40 threads in play and cost
    /// 5-10 % of the rate in context switches; queued work still gets a worker through the pool's stall
    /// rule when reads are slow.
    func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        let db = try checkOut()
        defer { checkIn(db) }
        return try body(db)
    }

    /// Like `withConnection`, but nil at once when every connection is borrowed.
    func withConnectionIfFree<T>(_ body: (Database) throws -> T) throws -> T? {
        condition.lock()
        guard !closed else {
            condition.unlock()
            throw StorageError.closed
        }
        guard let db = idle.popLast() else {
            condition.unlock()
            return nil
        }
        condition.unlock()
        defer { checkIn(db) }
        return try body(db)
    }

    /// A free connection at once, or nil when none is; give it back with `checkIn`.
    func tryCheckOut() throws -> Database? {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { throw StorageError.closed }
        return idle.popLast()
    }

    private func checkOut() throws -> Database {
        condition.lock()
        defer { condition.unlock() }
        while idle.isEmpty && !closed {
            condition.wait()
        }
        guard !closed, let db = idle.popLast() else { throw StorageError.closed }
        return db
    }

    /// Gives back a connection taken with `tryCheckOut` (or by the pool's own calls), ending any transaction
    /// left open on it.
    func checkIn(_ db: Database) {
        // A body that opened a transaction and threw must not leave the snapshot pinned: an open read
        // transaction stops checkpoints from recycling the WAL.
        if db.isInTransaction { try? db.execute("ROLLBACK") }
        condition.lock()
        // Generation 0 (statistics never reloaded, the usual case) needs no lookup: every connection is
        // current, and it goes back in the same locked section (one lock per check-in instead of two and a
        // dictionary lookup, on the path of every point read).
        let stale = generation > 0 && (generations[ObjectIdentifier(db)] ?? 0) < generation
        var connection = db
        if stale {
            condition.unlock()
            connection = renewed(db)
            condition.lock()
        }
        idle.append(connection)
        // One connection came back, so one waiter can proceed: waking them all (broadcast) made every
        // blocked worker thread run just to go back to sleep. `close()` waits for all of them, so it
        // still gets a broadcast.
        if closed { condition.broadcast() } else { condition.signal() }
        condition.unlock()
    }

    /// Releases the memory map and page cache of every connection idle now (see `Database.releaseMemory`),
    /// one at a time: each is taken out of the pool like a checkout meanwhile, so no caller can use it, and a
    /// caller that wants a connection finds the others. Connections borrowed now keep theirs. Returns how
    /// many were released.
    @discardableResult
    func releaseMemory() -> Int {
        condition.lock()
        let candidates = idle.map(ObjectIdentifier.init)
        condition.unlock()
        var released = 0
        for candidate in candidates {
            condition.lock()
            guard !closed, let index = idle.firstIndex(where: { ObjectIdentifier($0) == candidate }) else {
                condition.unlock()
                continue
            }
            let db = idle.remove(at: index)
            condition.unlock()
            if (try? db.releaseMemory()) != nil { released += 1 }
            checkIn(db)
        }
        return released
    }

    /// Refuses new checkouts, waits for borrowed connections to come back, then closes all of them.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        while idle.count < total {
            condition.wait()
        }
        let connections = idle
        idle.removeAll()
        open.removeAll()
        condition.unlock()
        for db in connections { db.close() }
    }

    /// Interrupts the statements running on every connection of the pool (see `Database.interrupt`).
    func interruptAll() {
        condition.lock()
        defer { condition.unlock() }
        for db in open { db.interrupt() }
    }
}
