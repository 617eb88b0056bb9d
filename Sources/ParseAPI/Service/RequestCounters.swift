import Foundation
import Core

/// Cached request counters by (method, route pattern, status).
///
/// Looking a labelled series up in the registry builds its label text under the registry's lock on every
/// call; with many worker threads on few cores that lookup showed up as several percent of a cheap
/// request's CPU. Here the hit path is one short critical section on a plain lock.
final class RequestCounters: @unchecked Sendable {
    struct Key: Hashable { let method: String; let pattern: String; let status: Int }
    private let lock = NSLock()
    private var counters: [Key: Counter] = [:]

    /// The cached counter for `key`, if any.
    func counter(_ key: Key) -> Counter? {
        lock.lock()
        defer { lock.unlock() }
        return counters[key]
    }

    /// Remembers `counter` for `key`.
    func store(_ counter: Counter, for key: Key) {
        lock.lock()
        counters[key] = counter
        lock.unlock()
    }
}
