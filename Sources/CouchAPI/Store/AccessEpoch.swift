import Synchronization

/// A counter that moves whenever something an authorization decision depends on is committed: a database's
/// `_security` object, a design document (`validate_doc_update`, §2.8), any document of `_users` (accounts and
/// roles, §3.10), a database created or deleted. Caches of those facts remember the value they were read at
/// and are stale once it moved, so a request never needs a statement to find out.
///
/// The store moves it on the writer thread right after the commit and before any completion runs, so the
/// client whose write moved it, and every later request, sees the change. A reader records the value
/// *before* it reads: should a commit land during the read, the entry it then stores is already stale.
public final class AccessEpoch: Sendable {
    private let value = Atomic<UInt64>(0)

    /// A counter at zero.
    public init() {}

    /// The current value.
    public var current: UInt64 { value.load(ordering: .acquiring) }

    /// Moves the counter (after a commit that changed access facts).
    public func advance() { value.add(1, ordering: .releasing) }
}
