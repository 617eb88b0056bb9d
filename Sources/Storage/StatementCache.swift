/// Least-recently-used cache of prepared statements keyed by their SQL text.
///
/// Preparing is a noticeable part of a short query's cost, and the same few statements run over and
/// over, so each connection keeps the most recent `capacity` of them.
final class StatementCache {
    /// A class, so that marking a use does not look the SQL text up a second time.
    private final class Entry {
        let statement: Statement
        var lastUse: UInt64

        init(statement: Statement, lastUse: UInt64) {
            self.statement = statement
            self.lastUse = lastUse
        }
    }

    private var entries: [String: Entry] = [:]
    /// Advances on every use; the entry with the smallest `lastUse` is the least recently used.
    private var clock: UInt64 = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    /// The cached statement for `sql`, marked most recently used.
    func statement(for sql: String) -> Statement? {
        // One dictionary update per use: an ordered list made every lookup search and shift it, which
        // showed in profiles of the writer thread, where every job runs several cached statements.
        guard let entry = entries[sql] else { return nil }
        clock &+= 1
        entry.lastUse = clock
        return entry.statement
    }

    /// Adds a statement, evicting (and so finalizing) the least recently used one when full.
    func insert(_ statement: Statement) {
        guard capacity > 0 else { return }
        clock &+= 1
        if entries[statement.sql] != nil {
            entries[statement.sql] = Entry(statement: statement, lastUse: clock)
            return
        }
        // Evict an idle statement only: one in use is still being stepped by an outer call. The scan is
        // linear in the capacity, and only runs when a new statement arrives at a full cache.
        while entries.count >= capacity,
              let victim = entries.lazy.filter({ !$0.value.statement.inUse }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[victim.key] = nil
        }
        guard entries.count < capacity else { return }
        entries[statement.sql] = Entry(statement: statement, lastUse: clock)
    }

    /// Drops every statement (finalizing them).
    func removeAll() {
        entries.removeAll()
    }
}
