/// Least-recently-used cache of prepared statements keyed by their SQL text.
///
/// Preparing is a noticeable part of a short query's cost, and the same few statements run over and
/// over, so each connection keeps the most recent `capacity` of them.
final class StatementCache {
    private var entries: [String: Statement] = [:]
    /// SQL texts from least to most recently used.
    private var order: [String] = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    /// The cached statement for `sql`, marked most recently used.
    func statement(for sql: String) -> Statement? {
        guard let statement = entries[sql] else { return nil }
        touch(sql)
        return statement
    }

    /// Adds a statement, evicting (and so finalizing) the least recently used one when full.
    func insert(_ statement: Statement) {
        guard capacity > 0 else { return }
        if entries[statement.sql] != nil {
            entries[statement.sql] = statement
            touch(statement.sql)
            return
        }
        // Evict an idle statement only: one in use is still being stepped by an outer call.
        while entries.count >= capacity, let victim = order.firstIndex(where: { entries[$0]?.inUse == false }) {
            let key = order.remove(at: victim)
            entries[key] = nil
        }
        guard entries.count < capacity else { return }
        entries[statement.sql] = statement
        order.append(statement.sql)
    }

    /// Drops every statement (finalizing them).
    func removeAll() {
        entries.removeAll()
        order.removeAll()
    }

    private func touch(_ sql: String) {
        // Linear in the capacity (64 by default); cheaper than a linked list at this size.
        if let i = order.lastIndex(of: sql) {
            order.remove(at: i)
        }
        order.append(sql)
    }
}
