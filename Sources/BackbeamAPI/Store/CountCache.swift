import Core
import Storage
import Synchronization

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
/// snapshots: the database content, and with it the count, is the same. Any other connection, a changed
/// value, or a connection replaced since (the answer holds it weakly, so a new connection at the same
/// address is not taken for the old one) counts again. Catalogue and index changes are commits too, and
/// they also change the statement texts (`QueryPlanCache`). Only texts kept by shape are used as keys (a
/// text chosen by a value never is), with every bound value.
///
/// Bounded: at most `capacity` statements with their values, the oldest entered leaving first (constant
/// time; a hit does not reorder), each with at most one answer per connection (`maxAnswers`).
final class CountCache: Sendable {
    struct Key: Hashable, Sendable {
        var text: String
        var args: [SQLValue]
    }

    /// A connection held weakly: alive and of the same address, it is the same connection.
    private final class ConnectionRef: @unchecked Sendable {
        // Only read for whether it is still there, under the cache's lock; never used to run statements.
        private weak var connection: Database?
        let id: ObjectIdentifier

        init(_ connection: Database) {
            self.connection = connection
            id = ObjectIdentifier(connection)
        }

        var isAlive: Bool { connection != nil }
    }

    /// The count one connection read at one `data_version`.
    private struct Answer: Sendable {
        var connection: ConnectionRef
        var version: Int64
        var count: Int

        func isOf(_ id: ObjectIdentifier) -> Bool { connection.id == id && connection.isAlive }
    }

    private struct State {
        var answers: [Key: [Answer]] = [:]
        /// Keys in the order they were entered (a ring of `capacity` slots), for eviction.
        var order: [Key?] = []
        var next = 0
    }

    private let state: Mutex<State>
    /// Most keys kept; 0 turns the cache off.
    let capacity: Int
    /// Answers kept per key, one per reader connection (the reader pool's default is 8).
    static let maxAnswers = 16

    /// Totals answered from the cache, and totals counted and kept (`/metrics`: whether the cache serves a
    /// load depends on how often the database changes under it).
    private let hits: Counter?
    private let misses: Counter?

    init(capacity: Int, metrics: MetricsRegistry? = nil) {
        self.capacity = max(0, capacity)
        state = Mutex(State())
        hits = metrics?.counter("quartet_backbeam_count_cache_hits_total",
                                help: "List query totals answered from kept counts")
        misses = metrics?.counter("quartet_backbeam_count_cache_misses_total",
                                  help: "List query totals counted and kept (none kept for the connection at its data version)")
    }

    /// The count `connection` read for `key` at `version`, if kept.
    func count(_ key: Key, connection: Database, version: Int64) -> Int? {
        guard capacity > 0 else { return nil }
        let id = ObjectIdentifier(connection)
        let kept = state.withLock { state -> Int? in
            guard let answers = state.answers[key] else { return nil }
            for answer in answers where answer.version == version && answer.isOf(id) {
                return answer.count
            }
            return nil
        }
        if kept != nil { hits?.increment() }
        return kept
    }

    /// Keeps the count `connection` read for `key` at `version`, in place of that connection's earlier one.
    func keep(_ key: Key, connection: Database, version: Int64, count: Int) {
        guard capacity > 0 else { return }
        misses?.increment()
        let answer = Answer(connection: ConnectionRef(connection), version: version, count: count)
        let id = answer.connection.id
        state.withLock { state in
            if var answers = state.answers[key] {
                // Answers of connections gone (replaced after new statistics) and this one's older answer leave.
                answers.removeAll { !$0.connection.isAlive || $0.connection.id == id }
                if answers.count >= Self.maxAnswers { answers.removeFirst() }
                answers.append(answer)
                state.answers[key] = answers
                return
            }
            if state.order.count < capacity {
                state.order.append(key)
            } else {
                if let victim = state.order[state.next] { state.answers[victim] = nil }
                state.order[state.next] = key
                state.next = (state.next + 1) % capacity
            }
            state.answers[key] = [answer]
        }
    }

    /// Keys currently kept (for tests and diagnostics).
    var count: Int { state.withLock { $0.answers.count } }

    /// The keys currently kept, oldest entered first (for tests and diagnostics).
    var keys: [Key] {
        state.withLock { state in
            let n = state.order.count
            return (0..<n).compactMap { state.order[(state.next + $0) % n] }
        }
    }
}
