import Synchronization

/// What decides the statement texts of a list query (`QueryRunner`): the environment, the entity, the parsed
/// BQL (its condition, joins and sort), whether there is a limit and an offset, and the generation of the
/// field catalogue the texts were compiled against (field ids, types and declared indexes). The values
/// bound to the statements are not part of it: they are collected again for every query.
struct QueryShape: Hashable {
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

/// A bounded least-recently-used cache of compiled query texts by shape, shared by all reader threads.
/// Emptied when a commit changes a field catalogue or an index (`SQLiteBackbeamStore.catalogueChanged`);
/// the catalogue generation in every key keeps an entry compiled against an older catalogue from being
/// found even by a query that raced that commit.
final class QueryPlanCache: Sendable {
    /// A class, so that marking a use does not hash the shape a second time.
    private final class Entry {
        let compiled: CompiledQuery
        var lastUse: UInt64

        init(compiled: CompiledQuery, lastUse: UInt64) {
            self.compiled = compiled
            self.lastUse = lastUse
        }
    }

    private struct State {
        var entries: [QueryShape: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Most shapes kept; 0 turns the cache off.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The texts of `shape` compiled under `schema`, marked most recently used.
    func get(_ shape: QueryShape, schema: ProjectSchema?) -> CompiledQuery? {
        guard capacity > 0 else { return nil }
        return state.withLock { state -> CompiledQuery? in
            guard let entry = state.entries[shape], entry.compiled.schema == schema else { return nil }
            state.clock &+= 1
            entry.lastUse = state.clock
            return entry.compiled
        }
    }

    /// Keeps `compiled` for `shape`, evicting the least recently used shape when full.
    func put(_ shape: QueryShape, _ compiled: CompiledQuery) {
        guard capacity > 0 else { return }
        state.withLock { state in
            state.clock &+= 1
            if state.entries[shape] == nil, state.entries.count >= capacity,
               let victim = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                // Linear in the capacity, and only when a new shape arrives at a full cache.
                state.entries[victim.key] = nil
            }
            state.entries[shape] = Entry(compiled: compiled, lastUse: state.clock)
        }
    }

    /// Drops every shape.
    func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// Shapes currently kept (for tests and diagnostics).
    var count: Int { state.withLock { $0.entries.count } }
}
