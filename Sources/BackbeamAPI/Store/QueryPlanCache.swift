import Core

/// What decides the statement texts of a list query (`QueryRunner`): the environment, the entity, the parsed
/// BQL (its condition, joins and sort), whether there is a limit and an offset, and the generation of the
/// field catalogue the texts were compiled against (field ids, types and declared indexes). The values
/// bound to the statements are not part of it: they are collected again for every query.
struct QueryShape: Hashable, Sendable {
    var space: Int64
    var entity: String
    var query: BQLQuery
    var hasLimit: Bool
    var hasOffset: Bool
    var catalogueGeneration: UInt64
}

/// The statement texts of one query shape: the page and the count. The texts are kept as the same
/// `String` values for every use, so the connection's statement cache finds their prepared statements by
/// the texts' address without hashing them (`StatementCache`).
struct CompiledQuery: Sendable {
    /// The schema the texts were compiled under (a strict or declared field changes how fields resolve).
    var schema: ProjectSchema?
    var page: String
    var count: String
}

/// Compiled query texts by shape, shared by all reader threads. Emptied when a commit changes a field
/// catalogue or an index (`SQLiteBackbeamStore.catalogueChanged`); the catalogue generation in every key
/// keeps an entry compiled against an older catalogue from being found even by a query that raced that
/// commit.
typealias QueryPlanCache = BoundedCache<QueryShape, CompiledQuery>

/// A key with its hash computed once, before a shared cache's lock is taken: the map below then hashes one
/// integer inside the lock instead of the whole key (a request's BQL text, a query's shape with its BQL
/// tree). Every list query takes two such locks (its parsed BQL's and its plan's), and hashing inside them
/// made each holder's critical section longer, so more of the other workers found the lock taken and spun or
/// slept on it.
struct PrehashedKey<Key: Hashable & Sendable>: Hashable, Sendable {
    let key: Key
    private let hash: Int

    init(_ key: Key) {
        self.key = key
        hash = key.hashValue
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// Different hashes answer without comparing the keys; equal ones still compare them.
    static func == (a: Self, b: Self) -> Bool { a.hash == b.hash && a.key == b.key }
}

/// A bounded least-recently-used map shared between threads (behind a lock; keys are hashed before it).
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A class, so that marking a use does not hash the key a second time.
    private final class Entry {
        let value: Value
        var lastUse: UInt64

        init(value: Value, lastUse: UInt64) {
            self.value = value
            self.lastUse = lastUse
        }
    }

    private struct State {
        var entries: [PrehashedKey<Key>: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// A pthread mutex (`Locked`), not `Synchronization.Mutex`: on Linux a contended Mutex spins in user
    /// space first and then waits on a priority-inheritance futex. Every list query takes two of these
    /// caches' locks (its parsed BQL's and its plan's), and under 64 clients on two cores the spinning on
    /// the query's cache locks was up to 4 % of the server's CPU (sampled; docs/performance.md). A pthread
    /// mutex's waiter sleeps at once.
    private let state = Locked(State())
    /// Most entries kept; 0 turns the cache off.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The value of `key`, marked most recently used.
    func get(_ key: Key) -> Value? {
        guard capacity > 0 else { return nil }
        let key = PrehashedKey(key)
        return state.withLock { state -> Value? in
            guard let entry = state.entries[key] else { return nil }
            state.clock &+= 1
            entry.lastUse = state.clock
            return entry.value
        }
    }

    /// Keeps `value` for `key`, evicting the least recently used entry when full.
    func put(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        let key = PrehashedKey(key)
        state.withLock { state in
            state.clock &+= 1
            if state.entries[key] == nil, state.entries.count >= capacity,
               let victim = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                // Linear in the capacity, and only when a new key arrives at a full cache.
                state.entries[victim.key] = nil
            }
            state.entries[key] = Entry(value: value, lastUse: state.clock)
        }
    }

    /// Drops every entry.
    func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// Entries currently kept (for tests and diagnostics).
    var count: Int { state.withLock { $0.entries.count } }
}
