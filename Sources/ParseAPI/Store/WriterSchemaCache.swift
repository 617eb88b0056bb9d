import Synchronization

/// Class schemas as the writer last read them, so that a write job does not read and decode its class's
/// schema row again for every object it creates or updates.
///
/// Schemas change only through write jobs (`saveSchema`, `deleteSchema`), and every such change clears the
/// cache and marks its writer transaction: until that transaction has ended (committed or rolled back),
/// what a job reads may be undone, so nothing read in it is kept. An entry read in any other transaction
/// is the committed schema, and stays so until the next change clears it. Read connections never use the
/// cache: they see their own snapshots.
final class WriterSchemaCache: Sendable {
    private struct State {
        /// nil values record classes without a stored schema.
        var entries: [String: ClassSchema?] = [:]
        /// The writer transaction that last changed a schema.
        var changedIn: UInt64?
    }

    /// Class names are client-chosen (clients may create classes), so the cache is bounded; when full it
    /// starts over, which only costs reading the rows again.
    private let capacity = 512
    private let state = Mutex(State())

    /// The cached schema of `className` (`.some(nil)`: known to have none), or nil when it must be read.
    func schema(_ className: String, transaction: UInt64) -> ClassSchema?? {
        state.withLock { state in
            guard state.changedIn != transaction else { return nil }
            return state.entries[className]
        }
    }

    /// Remembers what the writer read in `transaction`, unless that transaction changed a schema.
    func store(_ schema: ClassSchema?, for className: String, transaction: UInt64) {
        state.withLock { state in
            guard state.changedIn != transaction else { return }
            if state.entries.count >= capacity && state.entries[className] == nil {
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[className] = .some(schema)
        }
    }

    /// A schema is about to change in `transaction`.
    func invalidate(transaction: UInt64) {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.changedIn = transaction
        }
    }
}
