import Core
import Storage

/// Exact totals of list queries (`QueryRunner.count`), kept until the database changes: a repeated query
/// (same count statement, same bound values) answers its total without counting its matches again, which
/// was about a seventh of an indexed query of 100 matches and grows with the matches (a count reads every
/// matching index entry).
///
/// Why an answer is exact: each answer is kept with the read-only connection that counted it and that
/// connection's `PRAGMA data_version` inside the transaction that counted. SQLite changes that value on a
/// connection whenever any other connection, in this process or another, committed a change since the
/// connection's previous transaction, and a read-only connection commits nothing itself. So when the same
/// connection, inside a later read transaction, reads the same value, no commit happened between the two
/// snapshots: the database content, and with it the count, is the same. Any other connection or a changed
/// value counts again. Catalogue and index changes are commits too, and they also change the statement
/// texts (`QueryPlanCache`). Only texts kept by shape are used as keys (a text chosen by a value never is),
/// with every bound value.
///
/// Where the answers live: with their connection (`Database.attachment`), which only the thread holding it
/// touches, so reading or keeping one takes no lock. They were once in one map shared by all readers behind
/// a lock; every list query took it, and under 64 clients on two cores it was the most contended of the
/// query's locks (docs/performance.md, "The caches' locks under 64 clients"). An answer also goes with its
/// connection, so a connection replaced (after new statistics) never hands its answers to a successor at the
/// same address.
///
/// Bounded: at most `capacity` statements with their values per connection, the oldest entered leaving
/// first (constant time; a hit does not reorder).
final class CountCache: Sendable {
    struct Key: Hashable, Sendable {
        var text: String
        var args: [SQLValue]
    }

    /// One connection's answers: the count read for each key, at the data version it was read at.
    private final class Answers {
        var counts: [Key: (version: Int64, count: Int)] = [:]
        /// Keys in the order they were entered (a ring of `capacity` slots), for eviction.
        var order: [Key?] = []
        var next = 0
    }

    /// Most keys kept per connection; 0 turns the cache off.
    let capacity: Int

    /// Totals answered from the cache, and totals counted and kept (`/metrics`: whether the cache serves a
    /// load depends on how often the database changes under it).
    private let hits: Counter?
    private let misses: Counter?

    init(capacity: Int, metrics: MetricsRegistry? = nil) {
        self.capacity = max(0, capacity)
        hits = metrics?.counter("quartet_backbeam_count_cache_hits_total",
                                help: "List query totals answered from kept counts")
        misses = metrics?.counter("quartet_backbeam_count_cache_misses_total",
                                  help: "List query totals counted and kept (none kept for the connection at its data version)")
    }

    private func answers(of connection: Database) -> Answers { connection.attachment(Answers.self) { Answers() } }

    /// The count `connection` read for `key` at `version`, if kept.
    func count(_ key: Key, connection: Database, version: Int64) -> Int? {
        guard capacity > 0, let kept = answers(of: connection).counts[key], kept.version == version else { return nil }
        hits?.increment()
        return kept.count
    }

    /// Keeps the count `connection` read for `key` at `version`, in place of that connection's earlier one.
    func keep(_ key: Key, connection: Database, version: Int64, count: Int) {
        guard capacity > 0 else { return }
        misses?.increment()
        let answers = answers(of: connection)
        if answers.counts.updateValue((version, count), forKey: key) != nil { return }
        if answers.order.count < capacity {
            answers.order.append(key)
        } else {
            if let victim = answers.order[answers.next] { answers.counts[victim] = nil }
            answers.order[answers.next] = key
            answers.next = (answers.next + 1) % capacity
        }
    }

    /// Keys `connection` keeps answers for (for tests and diagnostics).
    func count(on connection: Database) -> Int { answers(of: connection).counts.count }

    /// The keys `connection` keeps answers for, oldest entered first (for tests and diagnostics).
    func keys(on connection: Database) -> [Key] {
        let answers = answers(of: connection)
        let n = answers.order.count
        return (0..<n).compactMap { answers.order[(answers.next + $0) % n] }
    }
}
