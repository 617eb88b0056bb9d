import Synchronization

/// Values write jobs read or wrote, kept from one group commit to the next so that later jobs need not
/// read them again (a class's schema, a datastore's row). Only write jobs use it.
///
/// Nothing enters it before the transaction that produced it has committed: `remember` and the second half
/// of `forget` run through `WriteContext.afterCommit`, in job order, and not at all when the job or its
/// transaction fails. A key being changed is forgotten at once as well, so that later jobs of the same
/// transaction read the changed value themselves. An entry is therefore always a committed value.
///
/// The methods are inlinable so that the modules using a cache get them specialized for their `Value`:
/// called generically across the module boundary, every dictionary operation looked up its type's metadata
/// at run time, about 1,500 instructions per call and four calls per Datastore delta on the writer thread.
public final class WriterCache<Value: Sendable>: Sendable {
    @usableFromInline let capacity: Int
    @usableFromInline let entries = Mutex<[String: Value]>([:])

    /// A cache of at most `capacity` keys (keys may come from clients); when full it starts over, which only
    /// costs reading the values again.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The committed value of `key`, when known.
    @inlinable
    public func value(_ key: String) -> Value? {
        entries.withLock { $0[key] }
    }

    /// Keeps `value` for `key` once the transaction of `context` has committed: a value read or written
    /// by that job.
    @inlinable
    public func remember(_ value: Value, for key: String, after context: WriteContext) {
        context.afterCommit { [self] in store(value, for: key) }
    }

    /// `key` changes in the transaction of `context`: forgotten now, and again after the commit (after
    /// anything an earlier job of the transaction remembered for it).
    @inlinable
    public func forget(_ key: String, in context: WriteContext) {
        remove(key)
        context.afterCommit { [self] in remove(key) }
    }

    /// How many keys are held.
    public var count: Int { entries.withLock { $0.count } }

    @inlinable
    func store(_ value: Value, for key: String) {
        entries.withLock { entries in
            if entries.count >= capacity && entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }

    @inlinable
    func remove(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
}
